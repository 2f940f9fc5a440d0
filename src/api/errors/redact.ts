/**
 * Keeps secrets out of logs and error messages. Two layers: the exact values the client knows
 * to be secret (API keys, passwords, tokens it sent or received), and patterns that catch
 * secrets it was never told about (a Bearer header, a JSON "password" field, a token in a query).
 */

export const REDACTED = '[redacted]';

/** Shorter values are not treated as secrets: replacing "a" everywhere would shred the text. */
const MIN_SECRET_LENGTH = 4;

type Replacement = string | ((match: string, ...groups: string[]) => string);

const PATTERNS: readonly [RegExp, Replacement][] = [
  // Authorization: Bearer xyz / Basic xyz, in header dumps or prose.
  [
    /\b(authorization\s*[:=]\s*"?)(?:(bearer|basic)\s+)?[^\s",;]+/gi,
    (_m: string, head: string, scheme: string | undefined) => `${head}${scheme ? `${scheme} ` : ''}${REDACTED}`,
  ],
  [/\b(bearer\s+)[A-Za-z0-9\-._~+/]+=*/gi, `$1${REDACTED}`],
  [/\b(x-api-key\s*[:=]\s*"?)[^\s",;]+/gi, `$1${REDACTED}`],
  // JSON or form fields that carry secrets.
  [
    /("(?:password|access_token|refresh_token|accessToken|refreshToken|apiKey|api_key|hubApiKey|token|x-api-key|authorization)"\s*:\s*")(?:[^"\\]|\\.)*"/gi,
    `$1${REDACTED}"`,
  ],
  [/([?&](?:password|access_token|refresh_token|api_key|apikey|token)=)[^&\s#]*/gi, `$1${REDACTED}`],
];

/**
 * A per-client set of known secret values. Not module state: each client owns one, so two
 * clients (two accounts) never share or leak each other's list.
 */
export class SecretSet {
  private readonly values = new Set<string>();
  /** `list()`'s answer until the next new secret: it is read for every log line. */
  private sorted: readonly string[] | undefined;

  add(...secrets: (string | undefined)[]): void {
    for (const s of secrets) {
      if (s === undefined || s.length < MIN_SECRET_LENGTH || this.values.has(s)) continue;
      this.values.add(s);
      this.sorted = undefined;
    }
  }

  /** Longest first, so a secret that contains another is replaced whole. */
  list(): readonly string[] {
    this.sorted ??= [...this.values].sort((a, b) => b.length - a.length);
    return this.sorted;
  }
}

/** A word every pattern above needs: text without one of them has nothing for the patterns to replace. */
const PATTERN_WORDS = /authorization|bearer|x-api-key|password|token|api_?key/i;

/** Replaces every known secret and every secret-looking pattern in `text`. */
export function redact(text: string, secrets: SecretSet | Iterable<string> = []): string {
  let out = text;
  const list =
    secrets instanceof SecretSet ? secrets.list() : [...secrets].filter((s) => s.length >= MIN_SECRET_LENGTH);
  for (const secret of list) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
  if (!PATTERN_WORDS.test(out)) return out;
  for (const [re, replacement] of PATTERNS) {
    out = typeof replacement === 'string' ? out.replace(re, replacement) : out.replace(re, replacement);
  }
  return out;
}

/** A copy of request headers fit for a log: credentials replaced, everything else kept. */
export function redactHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    out[name] = lower === 'authorization' || lower === 'x-api-key' || lower === 'cookie' ? REDACTED : value;
  }
  return out;
}
