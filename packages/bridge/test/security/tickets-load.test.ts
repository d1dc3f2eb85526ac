/**
 * Ticket users under load, live with real pi: 20 users, each with a ticket for their own session,
 * stream at once, and every fifth session has a watcher too. Every event reaches both connections
 * of a session, exactly and in order, and nothing crosses from one user to another. On pi 1.x, as
 * `load.test.ts`: tickets on pi 0.73 are covered by `tickets.test.ts`, and a second run of this
 * one (30 s and more) would cost CI more time than it tells.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { userOwner } from "../../src/principals/owner.ts";
import { connect, piEvents, type Rec, type TestClient } from "../helpers.ts";
import { api, mint, startTicketBridge, ticketKeys, withTicket } from "../ticket-helpers.ts";

const USERS = 20;
/** Words each answer streams, one text delta each. */
const WORDS = 200;
/**
 * Every user's session has this same name: only the user keeps the 20 sessions apart.
 */
const SESSION = "chat";

/** One user of the test: every word of their answer carries their tag, e.g. `u07-12`. */
interface User {
  readonly sub: string;
  readonly tag: string;
  /** Sessions 0, 5, 10 and 15 have a watcher. */
  readonly watched: boolean;
  /** The watcher uses a read-only ticket (sessions 5 and 15) or the user's own (0 and 10). */
  readonly readOnlyWatcher: boolean;
}

/** The exact text the user's prompt makes the scripted model stream, word by word. */
function answer(user: User): string {
  return Array.from({ length: WORDS }, (_, i) => `${user.tag}-${i + 1}`).join(" ");
}

/** The user tags (`07` of `u07-…`) found anywhere in a connection's records. */
function tagsIn(client: TestClient): string[] {
  const found = JSON.stringify(client.records).matchAll(/\bu(\d\d)-\d/g);
  return [...new Set([...found].map((m) => `u${m[1]}`))];
}

test("tickets load: 20 users stream at once, a watcher on every fifth session: every event reaches both, nothing crosses users", async () => {
  const keys = await ticketKeys();
  const bridge = await startTicketBridge(keys, { limits: { maxSessions: 24 } });
  const clients: TestClient[] = [];
  try {
    const users: User[] = Array.from({ length: USERS }, (_, i) => {
      const n = String(i).padStart(2, "0");
      return {
        sub: `user-${n}`,
        tag: `u${n}`,
        watched: i % 5 === 0,
        readOnlyWatcher: i % 10 === 5,
      };
    });
    // Tickets outlive the run: the listing at the end presents them again.
    const tickets = await Promise.all(
      users.map((u) => mint(keys, { sub: u.sub, sessionPrefix: "", expiresIn: 600 })),
    );
    const desks = await Promise.all(
      users.map(async (u, i) => {
        const desk = await connect(
          withTicket(bridge, tickets[i] as string, `${u.sub} desk`),
          SESSION,
        );
        clients.push(desk);
        return desk;
      }),
    );
    // Each desk is first on its session, so it controls; the watchers come after.
    const deskIds: unknown[] = [];
    for (const desk of desks) {
      const control = await desk.waitFor((r) => r.type === "bridge_control", 60_000);
      assert.deepEqual((control.controller as Rec).id, (control.you as Rec).id);
      deskIds.push((control.you as Rec).id);
    }
    const watchers = new Map<number, TestClient>();
    await Promise.all(
      users.map(async (u, i) => {
        if (!u.watched) return;
        // A read-only ticket opens no new session: the desk above has created it.
        const ticket = u.readOnlyWatcher
          ? await mint(keys, { sub: u.sub, sessions: [SESSION], readOnly: true, expiresIn: 600 })
          : (tickets[i] as string);
        const phone = await connect(withTicket(bridge, ticket, `${u.sub} phone`), SESSION);
        clients.push(phone);
        watchers.set(i, phone);
        const seen = await phone.waitFor((r) => r.type === "bridge_control", 60_000);
        assert.deepEqual(seen.controller, {
          id: deskIds[i],
          label: `${u.sub} desk`,
        });
        assert.deepEqual(seen.you, {
          id: (seen.you as Rec).id,
          label: `${u.sub} phone`,
          readOnly: u.readOnlyWatcher,
        });
        await (desks[i] as TestClient).waitFor(
          (r) => r.type === "bridge_control" && r.viewers === 2,
          60_000,
        );
      }),
    );
    assert.equal(watchers.size, 4);

    const started = await Promise.all(
      users.map((u, i) =>
        (desks[i] as TestClient).request(
          { type: "prompt", message: `[[text ${answer(u)}]]` },
          120_000,
        ),
      ),
    );
    for (const [i, response] of started.entries())
      assert.equal(response.success, true, `user ${i}`);
    await Promise.all(
      [...desks, ...watchers.values()].map((c) =>
        c.waitFor((r) => r.type === "agent_settled", 120_000),
      ),
    );

    for (const [i, user] of users.entries()) {
      const desk = desks[i] as TestClient;
      const deltas = desk.records.filter(
        (r) =>
          r.type === "message_update" && (r.assistantMessageEvent as Rec).type === "text_delta",
      );
      assert.equal(deltas.length, WORDS, `${user.sub}: ${deltas.length} text deltas`);
      const text = deltas.map((r) => (r.assistantMessageEvent as Rec).delta).join("");
      assert.equal(text, answer(user), `${user.sub}: the deltas rebuild the answer exactly`);
      // Each lifecycle record arrives exactly once, in order.
      const lifecycle = desk.records
        .map((r) => r.type)
        .filter((t) => t === "agent_start" || t === "agent_end" || t === "agent_settled");
      assert.deepEqual(lifecycle, ["agent_start", "agent_end", "agent_settled"], user.sub);
      // Every tag is unique to its user: another's in these records is an event that crossed.
      assert.deepEqual(tagsIn(desk), [user.tag], `${user.sub}'s desk`);
      const phone = watchers.get(i);
      if (phone !== undefined) {
        assert.deepEqual(piEvents(phone), piEvents(desk), `${user.sub}'s watcher`);
        assert.deepEqual(tagsIn(phone), [user.tag], `${user.sub}'s watcher`);
      }
      const session = bridge.bridge.sessions.get(`${userOwner(user.sub)}/${SESSION}`);
      assert.equal(session?.info().viewers, user.watched ? 2 : 1, user.sub);
    }
    assert.equal(bridge.bridge.sessions.size, USERS);

    // Each user's ticket opens all of that user's sessions, and lists only their own one.
    await Promise.all(
      users.map(async (u, i) => {
        const response = await api(bridge, tickets[i] as string, "/sessions");
        assert.equal(response.status, 200, u.sub);
        const page = (await response.json()) as {
          sessions: Array<{ name: string; title: string }>;
        };
        assert.deepEqual(
          page.sessions.map((s) => s.name),
          [SESSION],
          u.sub,
        );
        assert.ok(page.sessions[0]?.title.startsWith(`[[text ${u.tag}-1 `), u.sub);
      }),
    );
  } finally {
    await Promise.all(clients.map((c) => c.close()));
    await bridge.dispose();
  }
});
