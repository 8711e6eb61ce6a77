// The node-redis session, the same code for every major: node-redis-6/ and node-redis-4/ pass in
// their own installed package. Nothing but the major changes the protocol: 6 opens with HELLO 3, and
// reads RESP3 doubles as numbers.
import { host, port, tls, ROWS, COLUMNS, FAILING_BLOCK, insert, row, check, eq, eqRows, clientField, runSession, sharedSteps }
  from './session.mjs';

export async function nodeRedisSession(name, { createClient, ErrorReply }, resp) {
  // The client's defaults, but no endless reconnecting when the server refuses the handshake.
  // Over TLS (run.sh's *-tls clients) as its documentation says: a rediss:// URL, the CA and client certificate.
  const client = createClient(tls
    ? { url: `rediss://${host}:${port}`, socket: { host, port, reconnectStrategy: false, tls: true, ...tls } }
    : { socket: { host, port, reconnectStrategy: false } });
  client.on('error', () => {}); // connection errors also reject the awaited call, which reports them

  const sql = (statement) => client.sendCommand(['SQL', statement]);
  const count = async () => sql('SELECT COUNT(*) FROM people');
  const query = (statement) => client.sendCommand(['QUERY', statement]);
  const float = resp === '3' ? 2.5 : '2.5';
  const shared = sharedSteps({ sql, query, float, count, ping: () => client.ping(), info: (section) => client.info(section), ErrorType: ErrorReply });

  await runSession(name, [
    ['connect', async () => {
      await client.connect();
      eq(await client.ping(), 'PONG', 'PING');
    }],
    ['protocol', async () => {
      eq(clientField(await client.sendCommand(['CLIENT', 'INFO']), 'resp'), resp, 'protocol (CLIENT INFO resp=)');
    }],
    ['create table', async () => {
      eq(await client.sendCommand(['CREATE', 'TABLE', 'people', COLUMNS]), 'OK', 'CREATE TABLE');
    }],
    ['insert 1000 rows in one pipeline', async () => {
      const pipeline = client.multi();
      for (let i = 1; i <= ROWS; i++) pipeline.addCommand(['SQL', insert(i)]);
      const replies = await pipeline.execAsPipeline();
      eq(replies.length, ROWS, 'number of replies');
      replies.forEach((r, k) => eq(r, 'OK', `reply to INSERT of row ${k + 1}`));
      eq(await count(), ROWS, 'SELECT COUNT(*)');
    }],
    shared.readBack,
    shared.update,
    shared.delete,
    shared.error,
    shared.info,
    shared.typed,
    ['multi/exec commits', async () => {
      const replies = await client.multi()
        .addCommand(['SQL', "INSERT INTO people VALUES (1001, 1, 1001.25, 'in a transaction')"])
        .addCommand(['SQL', "UPDATE people SET name = 'committed' WHERE id = 1001"])
        .exec();
      eq(replies, ['OK', 1], 'EXEC replies');
      eqRows(await sql('SELECT * FROM people WHERE id = 1001'), [row(1001, '1001.25', 'committed')], 'row 1001');
    }],
    ['multi/exec with a failing statement leaves nothing behind', async () => {
      const before = await sql('SELECT * FROM people ORDER BY id');
      const transaction = client.multi();
      for (const statement of FAILING_BLOCK) transaction.addCommand(['SQL', statement]);
      const outcome = await transaction.exec().then((replies) => replies, (err) => err);
      check(outcome instanceof ErrorReply, `EXEC of a failing block rejects with an ErrorReply, got ${JSON.stringify(outcome)}`);
      eqRows(await sql('SELECT * FROM people ORDER BY id'), before, 'the table after the failed block');
    }],
    ['named ACL user (run.sh\'s reader)', async () => {
      // logs in by name (node-redis sends AUTH reader reader-pw, or HELLO 3 AUTH, from its options),
      // reads, and is refused a DELETE with NOPERM
      const reader = createClient(tls
        ? { url: `rediss://reader:reader-pw@${host}:${port}`,
            socket: { host, port, reconnectStrategy: false, tls: true, ...tls } }
        : { username: 'reader', password: 'reader-pw', socket: { host, port, reconnectStrategy: false } });
      reader.on('error', () => {});
      try {
        await reader.connect();
        eq(await reader.sendCommand(['ACL', 'WHOAMI']), 'reader', 'ACL WHOAMI');
        await reader.sendCommand(['SQL', 'SELECT COUNT(*) FROM people WHERE id < 0']);
        const refused = await reader.sendCommand(['SQL', 'DELETE FROM people']).then((r) => r, (err) => err);
        check(refused instanceof ErrorReply, `DELETE as reader was not refused: ${JSON.stringify(refused)}`);
        eq(refused.message, "NOPERM User reader has no permissions to run the 'delete' command", 'DELETE as reader');
      } finally {
        await reader.disconnect();
      }
    }],
  ], () => client.quit());
}
