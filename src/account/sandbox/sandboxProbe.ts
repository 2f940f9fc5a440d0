/**
 * Recognising a sandbox: `GET <baseUrl>/__sandbox` answers its description (docs/contracts/sandbox.md).
 * No `vscode`, so it is tested against a real sandbox in plain Node.
 *
 * A sandbox is only ever an address on this machine. The probe goes nowhere else (the production
 * address is never asked), and a reply that names any other host is refused: whatever answers
 * `/__sandbox` must not be able to send the user's next sign-in somewhere else.
 */
import { isLoopbackHost } from '../../api/http/urls';
import { type SandboxInfo, sandboxInfoSchema } from '../../sandbox/seed/info';

const PROBE_TIMEOUT_MS = 3_000;

/** Why `raw` cannot be a sandbox's address (a loopback http(s) URL without user info), or undefined. */
export function sandboxAddressProblem(raw: string): string | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'is not a URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `uses ${url.protocol} instead of http: or https:`;
  if (url.username !== '' || url.password !== '') return 'carries a user name or password';
  if (!isLoopbackHost(url.hostname))
    return `names ${url.hostname}, which is not this machine (localhost, 127.0.0.1 or ::1)`;
  return undefined;
}

/** Why a sandbox description cannot be trusted (one of its addresses is not local), or undefined. */
export function sandboxInfoProblem(info: Pick<SandboxInfo, 'baseUrl' | 'datahubUrl'>): string | undefined {
  for (const [field, value] of [
    ['baseUrl', info.baseUrl],
    ['datahubUrl', info.datahubUrl],
  ] as const) {
    const problem = sandboxAddressProblem(value);
    if (problem !== undefined) return `its ${field} ${problem}`;
  }
  return undefined;
}

export interface ProbeOptions {
  timeoutMs?: number;
  /** Told why an answer was refused (never with the reply's body). */
  onRefused?: (reason: string) => void;
}

/**
 * `GET <baseUrl>/__sandbox`: the sandbox's description, or undefined if the address is not a
 * local sandbox. An address that is not on this machine is not asked at all.
 */
export async function probeSandbox(baseUrl: string, options: ProbeOptions = {}): Promise<SandboxInfo | undefined> {
  if (sandboxAddressProblem(baseUrl) !== undefined) return undefined;
  let info: SandboxInfo;
  try {
    const reply = await fetch(`${baseUrl.replace(/\/+$/, '')}/__sandbox`, {
      signal: AbortSignal.timeout(options.timeoutMs ?? PROBE_TIMEOUT_MS),
      redirect: 'error',
      headers: { accept: 'application/json' },
    });
    if (!reply.ok) return undefined;
    const parsed = sandboxInfoSchema.safeParse(await reply.json());
    if (!parsed.success) return undefined;
    info = parsed.data;
  } catch {
    return undefined; // not reachable, not JSON: not a sandbox
  }
  const problem = sandboxInfoProblem(info);
  if (problem !== undefined) {
    options.onRefused?.(`The service at ${new URL(baseUrl).origin} answered as a sandbox, but ${problem}: refused.`);
    return undefined;
  }
  return info;
}
