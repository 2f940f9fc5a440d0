/** The health command: `scrapedeck.health.refresh` refreshes task health now (health/register.ts). */
import type { CommandDeps, Handlers } from './deps';

export function healthCommands(deps: Pick<CommandDeps, 'health'>): Handlers<'healthRefresh'> {
  return {
    healthRefresh: () => deps.health.refresh(),
  };
}
