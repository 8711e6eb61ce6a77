// ioredis 6 with its defaults: RESP3 first (HELLO 3, RESP2 if the server refuses it); ready once
// INFO says the server is not loading. Its default replyMapping "legacy" hands RESP3 doubles over as
// strings, as RESP2 would; one step reads them with replyMapping "resp3" to see the doubles.
import { Redis, ReplyError } from 'ioredis';
import { host, port, tls, ROWS, COLUMNS, FAILING_BLOCK, insert, row, check, eq, eqRows, clientField, runSession, sharedSteps, typedStep }
  from '../node-common/session.mjs';

const NAME = 'ioredis';
// lazyConnect so that a refused connection rejects connect() instead of retrying forever.
const redis = new Redis({ host, port, lazyConnect: true, retryStrategy: () => null, ...(tls ? { tls } : {}) });
redis.on('error', () => {}); // connection errors also reject the awaited call, which reports them

const sql = (statement) => redis.call('SQL', statement);
const count = () => sql('SELECT COUNT(*) FROM people');
const query = (statement) => redis.call('QUERY', statement);
const shared = sharedSteps({ sql, query, float: '2.5', count, ping: () => redis.ping(), info: (section) => redis.info(section), ErrorType: ReplyError });
// A second connection, with replyMapping "resp3": the same step, the FLOAT now a number.
const resp3 = new Redis({ host, port, lazyConnect: true, retryStrategy: () => null, replyMapping: 'resp3', ...(tls ? { tls } : {}) });
resp3.on('error', () => {});
const typedResp3 = typedStep('typed reply (QUERY), replyMapping "resp3": FLOAT as a double', {
  sql: (statement) => resp3.call('SQL', statement), query: (statement) => resp3.call('QUERY', statement), float: 2.5 });

await runSession(NAME, [
  ['connect', async () => {
    await redis.connect();
    eq(await redis.ping(), 'PONG', 'PING');
  }],
  ['protocol', async () => {
    eq(clientField(await redis.call('CLIENT', 'INFO'), 'resp'), '3', 'protocol (CLIENT INFO resp=)');
  }],
  ['create table', async () => {
    eq(await redis.call('CREATE', 'TABLE', 'people', COLUMNS), 'OK', 'CREATE TABLE');
  }],
  ['insert 1000 rows in one pipeline', async () => {
    const pipeline = redis.pipeline();
    for (let i = 1; i <= ROWS; i++) pipeline.call('SQL', insert(i));
    const replies = await pipeline.exec(); // [[error, reply], ...]
    eq(replies.length, ROWS, 'number of replies');
    replies.forEach(([err, r], k) => eq([err?.message ?? null, r], [null, 'OK'], `reply to INSERT of row ${k + 1}`));
    eq(await count(), ROWS, 'SELECT COUNT(*)');
  }],
  shared.readBack,
  shared.update,
  shared.delete,
  shared.error,
  shared.info,
  shared.typed,
  [typedResp3[0], async () => {
    try {
      await resp3.connect();
      await typedResp3[1]();
    } finally {
      resp3.disconnect();
    }
  }],
  ['multi/exec commits', async () => {
    const replies = await redis.multi()
      .call('SQL', "INSERT INTO people VALUES (1001, 1, 1001.25, 'in a transaction')")
      .call('SQL', "UPDATE people SET name = 'committed' WHERE id = 1001")
      .exec();
    eq(replies, [[null, 'OK'], [null, 1]], 'EXEC replies');
    eqRows(await sql('SELECT * FROM people WHERE id = 1001'), [row(1001, '1001.25', 'committed')], 'row 1001');
  }],
  ['multi/exec with a failing statement leaves nothing behind', async () => {
    const before = await sql('SELECT * FROM people ORDER BY id');
    const transaction = redis.multi();
    for (const statement of FAILING_BLOCK) transaction.call('SQL', statement);
    // EXEC either fails as a whole (rejects) or answers with the failed statement's error in place.
    const outcome = await transaction.exec().then((replies) => replies, (err) => err);
    const failedInPlace = Array.isArray(outcome) && outcome.some(([err]) => err instanceof ReplyError);
    check(outcome instanceof ReplyError || failedInPlace,
      `EXEC of a failing block reports a ReplyError, got ${JSON.stringify(outcome)}`);
    eqRows(await sql('SELECT * FROM people ORDER BY id'), before, 'the table after the failed block');
  }],
  ['named ACL user (run.sh\'s reader)', async () => {
    // logs in by name (AUTH reader reader-pw: ioredis sends it from its username/password options),
    // reads, and is refused a DELETE with NOPERM
    const reader = new Redis({ host, port, username: 'reader', password: 'reader-pw', lazyConnect: true,
      retryStrategy: () => null, ...(tls ? { tls } : {}) });
    reader.on('error', () => {});
    try {
      await reader.connect();
      eq(await reader.call('ACL', 'WHOAMI'), 'reader', 'ACL WHOAMI');
      await reader.call('SQL', 'SELECT COUNT(*) FROM people WHERE id < 0');
      const refused = await reader.call('SQL', 'DELETE FROM people').then((r) => r, (err) => err);
      check(refused instanceof ReplyError, `DELETE as reader was not refused: ${JSON.stringify(refused)}`);
      eq(refused.message, "NOPERM User reader has no permissions to run the 'delete' command", 'DELETE as reader');
    } finally {
      reader.disconnect();
    }
  }],
], () => redis.quit());
