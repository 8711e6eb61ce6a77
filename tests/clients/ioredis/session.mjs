// ioredis 6 with its defaults: RESP3 first (HELLO 3, RESP2 if the server refuses it); ready once
// INFO says the server is not loading.
import { Redis, ReplyError } from 'ioredis';
import { host, port, ROWS, COLUMNS, FAILING_BLOCK, insert, row, allRows, check, eq, eqRows, parseInfo, clientField, runSession }
  from '../node-common/session.mjs';

const NAME = 'ioredis';
// lazyConnect so that a refused connection rejects connect() instead of retrying forever.
const redis = new Redis({ host, port, lazyConnect: true, retryStrategy: () => null });
redis.on('error', () => {}); // connection errors also reject the awaited call, which reports them

const sql = (statement) => redis.call('SQL', statement);
const count = () => sql('SELECT COUNT(*) FROM people');

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
  ['read back every row', async () => {
    eqRows(await sql('SELECT * FROM people ORDER BY id'), allRows(), 'SELECT * ORDER BY id');
  }],
  ['update count', async () => {
    eq(await sql('UPDATE people SET score = score + 1 WHERE grp = 3'), 100, 'UPDATE ... WHERE grp = 3');
    eqRows(await sql('SELECT * FROM people WHERE id = 13'), [row(13, '14.25')], 'row 13 after the UPDATE');
  }],
  ['delete count', async () => {
    eq(await sql('DELETE FROM people WHERE grp = 7'), 100, 'DELETE ... WHERE grp = 7');
    eq(await count(), 900, 'SELECT COUNT(*) after the DELETE');
  }],
  ['error reply', async () => {
    const e = await sql('SELECT * FROM nosuch').then(() => null, (err) => err);
    check(e instanceof ReplyError, `expected a ReplyError, got ${e?.constructor?.name ?? 'a reply'}`);
    check(e.message.includes("'nosuch'"), `the error names the table: ${e.message}`);
    eq(await redis.ping(), 'PONG', 'PING after the error');
  }],
  ['info', async () => {
    const server = parseInfo(await redis.info('server'));
    check(/^\d+\.\d+/.test(server.redis_version ?? ''), `INFO server redis_version: ${server.redis_version}`);
    check(server.respsql_version, 'INFO server has respsql_version');
    const keyspace = parseInfo(await redis.info('keyspace'));
    check(keyspace.db0?.startsWith('keys=1,'), `INFO keyspace db0 counts the one table: ${keyspace.db0}`);
    const tables = parseInfo(await redis.info('tables'));
    check(tables.table_people?.startsWith('rows=900,'), `INFO tables table_people: ${tables.table_people}`);
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
], () => redis.quit());
