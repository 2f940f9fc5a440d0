/**
 * The shape of one agent tool, shared by both adapters (VS Code language-model tools and the MCP
 * server). No `vscode`: the adapters pass in the client, the clock, the translator and the words
 * that differ between them (how to sign in). A tool parses its own input with zod (VS Code does
 * not validate tool input, and neither do all MCP clients) and answers compact text for a model.
 */
import * as z from 'zod';

import type { ScrapedeckClient } from '../api/client';
import type { DeprecatedApp } from '../api/schemas/schemas';
import type { Translate } from '../platform/errorText';
import { plainText } from '../platform/plainText';

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
  /** Told of a run this call starts or stops, so the Tasks view shows and follows it as its own. */
  runs?: RunHook;
}

/** Around a start or stop request: before it goes out, and what came back (the tree's way in, `runs/runWatch.ts`). */
export interface RunHook {
  before(verb: 'start' | 'stop', task: { taskId: string; taskName: string }): void;
  after(verb: 'start' | 'stop', taskId: string, result: { ok: true; lotNo: string | null } | { ok: false }): void;
}

export type AppOutcome =
  { kind: 'deprecated'; result: DeprecatedApp } | { kind: 'not-found'; requestId: string | undefined };

/** A tool's answer: text for the model (a summary sentence, then compact JSON). */
export interface ToolReply {
  ok: boolean;
  text: string;
}

/** What a person confirms before a tool changes anything: plain text (service text through `plainText`). */
export interface Confirmation {
  title: string;
  message: string;
}

/**
 * What a tool that changes something would do, resolved against the service without changing
 * anything: the confirmation to show, and exactly what would be acted on. `execute` acts on that
 * target and nothing else; an adapter may show the confirmation, resolve again at the moment of the
 * call and compare targets, so what runs is what was confirmed.
 */
export interface Plan {
  confirmation: Confirmation;
  /**
   * What is acted on, exactly ("task 1c9e…", "app ada/lead-finder"). Undefined: nothing will be
   * sent (the task was not found…), and the confirmation says so.
   */
  target: string | undefined;
  /** Acts on `target`; with no target, the refusal the confirmation announced (nothing is sent). */
  execute(ctx: ToolContext): Promise<ToolReply>;
}

/** A parsed call of a tool that only reads. */
export interface ReadCall {
  ok: true;
  readOnly: true;
  /** Shown while the tool runs ("Reading the run status of 3 tasks…"). */
  progress: string;
  run(ctx: ToolContext): Promise<ToolReply>;
}

/** A parsed call of a tool that changes something: planned (and confirmed) before it executes. */
export interface ChangeCall {
  ok: true;
  readOnly: false;
  progress: string;
  /** One sentence saying what the call would do, from its input alone (no request is sent to word it). */
  intent: string;
  plan(ctx: ToolContext): Promise<Plan>;
}

export type ParsedCall = ReadCall | ChangeCall | { ok: false; text: string };

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
  /** True for every tool that changes something (MCP's destructiveHint): a client should ask first. */
  readonly destructive: boolean;
  readonly idempotent: boolean;
  readonly schema: z.ZodType;
  /** The input schema as JSON Schema (the manifest's inputSchema and MCP's). */
  jsonSchema(): Record<string, unknown>;
  parse(raw: unknown, t: Translate): ParsedCall;
}

interface CommonSpec<S extends z.ZodType> {
  name: string;
  title: string;
  userDescription: string;
  modelDescription: string;
  reference: string;
  idempotent: boolean;
  input: S;
  progress(input: z.output<S>, t: Translate): string;
}

export interface ReadToolSpec<S extends z.ZodType> extends CommonSpec<S> {
  readOnly: true;
  run(input: z.output<S>, ctx: ToolContext): Promise<ToolReply>;
}

export interface ChangeToolSpec<S extends z.ZodType> extends CommonSpec<S> {
  readOnly: false;
  intent(input: z.output<S>, t: Translate): string;
  plan(input: z.output<S>, ctx: ToolContext): Promise<Plan>;
}

export type ToolSpec<S extends z.ZodType> = ReadToolSpec<S> | ChangeToolSpec<S>;

export function defineTool<S extends z.ZodType>(spec: ToolSpec<S>): AgentTool {
  if (!/^scrapedeck_[a-z_]+$/.test(spec.name)) throw new Error(`bad tool name ${spec.name}`);
  return {
    name: spec.name,
    title: spec.title,
    userDescription: spec.userDescription,
    modelDescription: spec.modelDescription,
    reference: spec.reference,
    readOnly: spec.readOnly,
    // Whatever changes something is marked destructive, so every MCP client asks before it.
    destructive: !spec.readOnly,
    idempotent: spec.idempotent,
    schema: spec.input,
    jsonSchema: () => toolJsonSchema(spec.input),
    parse(raw, t): ParsedCall {
      const parsed = spec.input.safeParse(raw ?? {});
      if (!parsed.success) return { ok: false, text: inputProblem(spec.name, parsed.error, t) };
      const input = parsed.data;
      const progress = spec.progress(input, t);
      if (spec.readOnly) return { ok: true, readOnly: true, progress, run: (ctx) => spec.run(input, ctx) };
      return {
        ok: true,
        readOnly: false,
        progress,
        intent: spec.intent(input, t),
        plan: (ctx) => spec.plan(input, ctx),
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
  return t(
    'The input of {0} was not valid: {1}. Nothing was sent; correct the input and call it again.',
    plainText(name),
    issues.join('; '),
  );
}

/** A summary sentence, then the compact JSON a model can read further. */
export function reply(summary: string, data?: unknown): ToolReply {
  return { ok: true, text: data === undefined ? summary : `${summary}\n${JSON.stringify(data)}` };
}

export function refusal(text: string): ToolReply {
  return { ok: false, text };
}
