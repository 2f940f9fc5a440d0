/**
 * The shape of one agent tool, shared by both adapters (VS Code language-model tools and the MCP
 * server). No `vscode`: the adapters pass in the client, the clock, the translator and the words
 * that differ between them (how to sign in). A tool parses its own input with zod (VS Code does
 * not validate tool input, and neither do all MCP clients) and answers compact text for a model.
 */
import * as z from 'zod';
import type { ScrapedeckClient } from '../api/client';
import type { DeprecatedApp } from '../api/schemas';
import type { Translate } from '../platform/errorText';

/** What an adapter knows when a tool runs. */
export interface ToolContext {
  client: ScrapedeckClient;
  now: () => number;
  t: Translate;
  signal?: AbortSignal;
  /** Who the tools act for, as confirmations name it ("ada (sandbox)"); never a secret. */
  accountLabel: string;
  /** One sentence: what to do when the service refuses the credentials (differs per adapter). */
  signInHint: string;
  /** A sentence saying why the hub cannot be called now (no address, no API key), or undefined. */
  hubProblem?: () => string | undefined;
  /** Told what the hub said about an app, so the Data Apps view can show it. */
  onAppOutcome?: (ref: string, outcome: AppOutcome) => void | Promise<void>;
}

export type AppOutcome = { kind: 'deprecated'; result: DeprecatedApp } | { kind: 'not-found'; requestId: string | undefined };

/** A tool's answer: text for the model (a summary sentence, then compact JSON). */
export interface ToolReply {
  ok: boolean;
  text: string;
}

/** What a person confirms before a tool changes anything. */
export interface Confirmation {
  title: string;
  message: string;
}

/** A parsed call, ready to confirm (tools that change anything) and run. */
export interface PreparedCall {
  /** Shown while the tool runs ("Reading the run status of 3 tasks…"). */
  progress: string;
  confirm?: (ctx: ToolContext) => Promise<Confirmation>;
  run: (ctx: ToolContext) => Promise<ToolReply>;
}

export type ParsedCall = ({ ok: true } & PreparedCall) | { ok: false; text: string };

/** One row of the tool table, as the adapters see it. */
export interface AgentTool {
  /** `scrapedeck_…`: the same name in VS Code and in MCP. */
  readonly name: string;
  /** Short, for people (the manifest's displayName, the MCP title). */
  readonly title: string;
  /** One sentence for people (the manifest's userDescription, shown in the tools picker). */
  readonly userDescription: string;
  /** For the model: what the tool does, when to use it, what it returns and how to get more. */
  readonly modelDescription: string;
  /** The `#` name in VS Code chat. */
  readonly reference: string;
  readonly readOnly: boolean;
  readonly destructive: boolean;
  readonly idempotent: boolean;
  readonly schema: z.ZodType;
  /** The input schema as JSON Schema (the manifest's inputSchema and MCP's). */
  jsonSchema(): Record<string, unknown>;
  parse(raw: unknown, t: Translate): ParsedCall;
}

export interface ToolSpec<S extends z.ZodType> {
  name: string;
  title: string;
  userDescription: string;
  modelDescription: string;
  reference: string;
  readOnly: boolean;
  destructive: boolean;
  idempotent: boolean;
  input: S;
  progress(input: z.output<S>, t: Translate): string;
  /** Required of every tool that changes anything (checked by `defineTool`). */
  confirm?(input: z.output<S>, ctx: ToolContext): Promise<Confirmation>;
  run(input: z.output<S>, ctx: ToolContext): Promise<ToolReply>;
}

export function defineTool<S extends z.ZodType>(spec: ToolSpec<S>): AgentTool {
  if (!spec.readOnly && spec.confirm === undefined) throw new Error(`${spec.name} changes something and has no confirmation`);
  if (!/^scrapedeck_[a-z_]+$/.test(spec.name)) throw new Error(`bad tool name ${spec.name}`);
  return {
    name: spec.name,
    title: spec.title,
    userDescription: spec.userDescription,
    modelDescription: spec.modelDescription,
    reference: spec.reference,
    readOnly: spec.readOnly,
    destructive: spec.destructive,
    idempotent: spec.idempotent,
    schema: spec.input,
    jsonSchema: () => toolJsonSchema(spec.input),
    parse(raw, t) {
      const parsed = spec.input.safeParse(raw ?? {});
      if (!parsed.success) return { ok: false, text: inputProblem(spec.name, parsed.error, t) };
      const input = parsed.data;
      return {
        ok: true,
        progress: spec.progress(input, t),
        ...(spec.confirm === undefined ? {} : { confirm: (ctx: ToolContext) => (spec.confirm as NonNullable<typeof spec.confirm>)(input, ctx) }),
        run: (ctx) => spec.run(input, ctx),
      };
    },
  };
}

/** JSON Schema of a tool input: what a model may send (`io: 'input'`), without `$schema`. */
export function toolJsonSchema(schema: z.ZodType): Record<string, unknown> {
  const json = z.toJSONSchema(schema, { io: 'input', target: 'draft-7' }) as Record<string, unknown>;
  delete json.$schema;
  return json;
}

/** "The input of scrapedeck_x was not valid: rows: must be at most 20. Nothing was sent." */
export function inputProblem(name: string, error: z.ZodError, t: Translate): string {
  const issues = error.issues.slice(0, 5).map((issue) => {
    const where = issue.path.length > 0 ? issue.path.join('.') : t('input');
    return `${where}: ${issue.message}`;
  });
  return t('The input of {0} was not valid: {1}. Nothing was sent; correct the input and call it again.', name, issues.join('; '));
}

/** A summary sentence, then the compact JSON a model can read further. */
export function reply(summary: string, data?: unknown): ToolReply {
  return { ok: true, text: data === undefined ? summary : `${summary}\n${JSON.stringify(data)}` };
}

export function refusal(text: string): ToolReply {
  return { ok: false, text };
}
