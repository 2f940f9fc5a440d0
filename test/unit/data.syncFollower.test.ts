/**
 * Keep in sync, the follower (`src/data/sync/syncFollower.ts`) and where follows are kept
 * (`syncTargets.ts`): a run's end starts exactly one pull; ends that come while it pulls queue one
 * more, never two; a failure is one notification; Restricted Mode pulls nothing; each account has
 * its own follows; a server follow is the user's, a file follow the workspace's.
 */
import * as assert from 'node:assert/strict';

import type { TaskRef } from '../../src/api/taskRef';
import type { MementoLike } from '../../src/data/pull/rememberedTargets';
import { SyncFollower, type SyncOutcome } from '../../src/data/sync/syncFollower';
import { type Follow, SYNC_USER_KEY, SYNC_WORKSPACE_KEY, SyncTargets } from '../../src/data/sync/syncTargets';

class Memory implements MementoLike {
  readonly values = new Map<string, unknown>();
  get<T>(key: string): T | undefined {
    return this.values.get(key) as T | undefined;
  }
  update(key: string, value: unknown): Thenable<void> {
    this.values.set(key, value);
    return Promise.resolve();
  }
}

/** A pull that waits until the test lets it finish. */
class Gate {
  private opened: (() => void)[] = [];
  wait(): Promise<void> {
    return new Promise((resolve) => this.opened.push(resolve));
  }
  get waiting(): number {
    return this.opened.length;
  }
  open(): void {
    const all = this.opened;
    this.opened = [];
    for (const resolve of all) resolve();
  }
}

const ADA = 'account-ada';
const LINUS = 'account-linus';
const PG = 'scrapedeck-postgres:/c1';
const FILE = 'file:///work/rows.sqlite';

function harness(o: { trusted?: boolean; outcome?: () => SyncOutcome; gate?: Gate } = {}) {
  const user = new Memory();
  const workspace = new Memory();
  const targets = new SyncTargets({ user, workspace });
  let account: string | undefined = ADA;
  let trusted = o.trusted ?? true;
  const pulls: { task: TaskRef; follow: Follow; account: string | undefined }[] = [];
  const notices: string[] = [];
  const logs: string[] = [];
  const follower = new SyncFollower({
    accountKey: () => account,
    targets,
    trusted: () => trusted,
    pull: async (task, follow) => {
      pulls.push({ task, follow, account });
      if (o.gate) await o.gate.wait();
      return o.outcome?.() ?? { kind: 'pulled', rows: 10 };
    },
    failed: (task, _follow, sentence) => notices.push(`${task.taskName}: ${sentence}`),
    log: { info: (m) => logs.push(m), warn: (m) => logs.push(m) },
  });
  return {
    user,
    workspace,
    targets,
    follower,
    pulls,
    notices,
    logs,
    signIn: (key: string | undefined) => void (account = key),
    trust: (value: boolean) => void (trusted = value),
  };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

/** Ada follows t1 into PostgreSQL; its run ended, its pull waits at the gate, and a second end queued one more. */
async function pullingWithOneQueued() {
  const gate = new Gate();
  const h = harness({ gate });
  await h.targets.set(ADA, 't1', { target: PG, taskName: 'Prices' }, 'user');
  h.follower.runsEnded(['t1']);
  await settle();
  h.follower.runsEnded(['t1']);
  return { gate, h };
}

describe('data: keep in sync, the follower', () => {
  it('a run that ends starts exactly one pull, into the follow of that task only', async () => {
    const h = harness();
    await h.targets.set(ADA, 't1', { target: PG, taskName: 'Prices' }, 'user');
    h.follower.runsEnded(['t1', 't2']);
    await h.follower.idle();
    assert.deepEqual(
      h.pulls.map((p) => [p.task, p.follow.target]),
      [[{ taskId: 't1', taskName: 'Prices' }, PG]],
    );
    assert.deepEqual(h.notices, [], 'a pull that worked says nothing');
  });

  it('the same task twice in one batch of ended runs is one pull', async () => {
    const h = harness();
    await h.targets.set(ADA, 't1', { target: PG, taskName: 'Prices' }, 'user');
    h.follower.runsEnded(['t1', 't1']);
    await h.follower.idle();
    assert.equal(h.pulls.length, 1);
  });

  it('runs that end while the task is being pulled queue one more pull, not one each', async () => {
    const gate = new Gate();
    const h = harness({ gate });
    await h.targets.set(ADA, 't1', { target: FILE, taskName: 'Prices' }, 'workspace');
    h.follower.runsEnded(['t1']);
    await settle();
    assert.equal(h.pulls.length, 1);
    assert.equal(h.follower.isPulling('t1'), true);
    h.follower.runsEnded(['t1']);
    h.follower.runsEnded(['t1']);
    await settle();
    assert.equal(h.pulls.length, 1, 'no second pull while the first is under way');
    gate.open();
    await settle();
    assert.equal(h.pulls.length, 2, 'the queued pull starts once the first is done');
    gate.open();
    await h.follower.idle();
    assert.equal(h.pulls.length, 2, 'two ends while pulling are one queued pull');
    assert.equal(h.follower.isPulling('t1'), false);
    // Later, a new end is a new pull.
    h.follower.runsEnded(['t1']);
    gate.open();
    await settle();
    gate.open();
    await h.follower.idle();
    assert.equal(h.pulls.length, 3);
  });

  it('a failed pull is one notification with its sentence; one that found nothing or was busy is none', async () => {
    let outcome: SyncOutcome = {
      kind: 'failed',
      sentence: 'PostgreSQL refused the user ada: check the user name and password.',
    };
    const h = harness({ outcome: () => outcome });
    await h.targets.set(ADA, 't1', { target: PG, taskName: 'Prices' }, 'user');
    h.follower.runsEnded(['t1']);
    await h.follower.idle();
    assert.deepEqual(h.notices, ['Prices: PostgreSQL refused the user ada: check the user name and password.']);
    for (const quiet of [{ kind: 'nothing-new' }, { kind: 'busy' }, { kind: 'cancelled' }] as SyncOutcome[]) {
      outcome = quiet;
      h.follower.runsEnded(['t1']);
      await h.follower.idle();
    }
    assert.equal(h.notices.length, 1);
    assert.equal(h.pulls.length, 4);
  });

  it('a pull that throws is a failure too (one notification), and the task can sync again', async () => {
    let fail = true;
    const h = harness({
      outcome: () => {
        if (fail) throw new Error('the sink broke');
        return { kind: 'pulled', rows: 1 };
      },
    });
    await h.targets.set(ADA, 't1', { target: PG, taskName: 'Prices' }, 'user');
    h.follower.runsEnded(['t1']);
    await h.follower.idle();
    fail = false;
    h.follower.runsEnded(['t1']);
    await h.follower.idle();
    assert.deepEqual(h.notices, ['Prices: the sink broke']);
    assert.equal(h.pulls.length, 2);
  });

  it('in Restricted Mode nothing is pulled (and the log says why)', async () => {
    const h = harness({ trusted: false });
    await h.targets.set(ADA, 't1', { target: PG, taskName: 'Prices' }, 'user');
    h.follower.runsEnded(['t1']);
    await h.follower.idle();
    assert.equal(h.pulls.length, 0);
    assert.deepEqual(h.notices, []);
    assert.ok(h.logs.some((l) => /Restricted Mode/.test(l)));
    h.trust(true);
    h.follower.runsEnded(['t1']);
    await h.follower.idle();
    assert.equal(h.pulls.length, 1, 'once trusted, the next end syncs');
  });

  it("signed out, nothing; another account signed in, that account's follows", async () => {
    const h = harness();
    await h.targets.set(ADA, 't1', { target: PG, taskName: 'Ada’s prices' }, 'user');
    await h.targets.set(LINUS, 't2', { target: FILE, taskName: 'Linus’s stock' }, 'workspace');
    h.signIn(undefined);
    h.follower.runsEnded(['t1', 't2']);
    await h.follower.idle();
    assert.equal(h.pulls.length, 0);
    h.signIn(LINUS);
    h.follower.runsEnded(['t1', 't2']);
    await h.follower.idle();
    assert.deepEqual(
      h.pulls.map((p) => [p.account, p.task.taskId, p.follow.target]),
      [[LINUS, 't2', FILE]],
    );
  });

  it('a pull queued for an account that was switched away from is dropped', async () => {
    const { gate, h } = await pullingWithOneQueued();
    h.signIn(LINUS);
    gate.open();
    await settle();
    gate.open(); // a pull wrongly started for Ada under Linus would wait here
    await h.follower.idle();
    assert.equal(h.pulls.length, 1);
  });

  it('a follow stopped while its task is pulled is not pulled again', async () => {
    const { gate, h } = await pullingWithOneQueued();
    await h.targets.forget(ADA, 't1');
    gate.open();
    await h.follower.idle();
    assert.equal(h.pulls.length, 1);
  });
});

describe('data: keep in sync, where follows are kept', () => {
  it("a server follow is the user's (global state), a file follow the workspace's; one per task", async () => {
    const h = harness();
    await h.targets.set(ADA, 't1', { target: PG, taskName: 'Prices' }, 'user');
    assert.ok(h.user.values.has(SYNC_USER_KEY));
    assert.equal(h.workspace.values.get(SYNC_WORKSPACE_KEY), undefined);
    await h.targets.set(ADA, 't1', { target: FILE, taskName: 'Prices' }, 'workspace');
    assert.deepEqual(
      h.user.values.get(SYNC_USER_KEY),
      { [ADA]: {} },
      'setting a file follow forgets the server follow',
    );
    assert.equal(h.targets.get(ADA, 't1')?.target, FILE);
    assert.equal(h.targets.get(LINUS, 't1'), undefined, 'another account sees none');
    assert.equal(await h.targets.forget(ADA, 't1'), true);
    assert.equal(await h.targets.forget(ADA, 't1'), false);
    assert.equal(h.targets.get(ADA, 't1'), undefined);
  });

  it('a state that does not parse follows nothing (and warns), never throws', () => {
    const user = new Memory();
    user.values.set(SYNC_USER_KEY, { [ADA]: { t1: { target: 42 } } });
    const warnings: string[] = [];
    const targets = new SyncTargets({ user, workspace: new Memory() }, (m) => warnings.push(m));
    assert.equal(targets.get(ADA, 't1'), undefined);
    assert.equal(warnings.length, 1);
  });
});
