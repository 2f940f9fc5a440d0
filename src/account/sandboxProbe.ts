/**
 * Recognising a sandbox: `GET <baseUrl>/__sandbox` answers its description (docs/contracts.md).
 * No `vscode`, so it is tested against a real sandbox in plain Node.
 */
import { sandboxInfoSchema, type SandboxInfo } from '../sandbox/info';

const PROBE_TIMEOUT_MS = 3_000;

/** `GET <baseUrl>/__sandbox`: the sandbox's description, or undefined if the address is not one. */
export async function probeSandbox(baseUrl: string, timeoutMs = PROBE_TIMEOUT_MS): Promise<SandboxInfo | undefined> {
  try {
    const reply = await fetch(`${baseUrl.replace(/\/+$/, '')}/__sandbox`, {
      signal: AbortSignal.timeout(timeoutMs),
      redirect: 'error',
      headers: { accept: 'application/json' },
    });
    if (!reply.ok) return undefined;
    const parsed = sandboxInfoSchema.safeParse(await reply.json());
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined; // not reachable, not JSON: not a sandbox
  }
}
