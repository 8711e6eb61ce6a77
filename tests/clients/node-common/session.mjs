// The session every Node client of the matrix runs (tests/clients/run.sh starts a server for it and
// passes RESPSQL_HOST / RESPSQL_PORT): the statements sent, the replies they must get, and a step
// runner that prints one line per step, "<client>: ok <step>" or "<client>: FAIL <step>: <why>".
// The Java (java/) and Python (python/) programs and redis-cli (redis-cli/) run the same session.

import { readFileSync } from 'node:fs';

export const host = process.env.RESPSQL_HOST ?? '127.0.0.1';
export const port = Number(process.env.RESPSQL_PORT ?? 6379);
// TLS (run.sh's *-tls clients): the test CA and a client certificate it signed, or null for plaintext.
export const tls = process.env.RESPSQL_TLS_CA ? {
  ca: readFileSync(process.env.RESPSQL_TLS_CA),
  cert: readFileSync(process.env.RESPSQL_TLS_CERT),
  key: readFileSync(process.env.RESPSQL_TLS_KEY),
} : null;

export const ROWS = 1000;
export const COLUMNS = '(id INT PRIMARY KEY, grp INT, score FLOAT, name TEXT)';

/** Row i as inserted: the text has a comma and a space, so it must travel quoted. */
export const insert = (i) => `INSERT INTO people VALUES (${i}, ${i % 10}, ${i}.25, 'Smith, John ${i}')`;

/** Row i as SELECT * returns it: values joined by commas. */
export const row = (i, score = `${i}.25`, name = `Smith, John ${i}`) => `${i},${i % 10},${score},${name}`;

export const allRows = () => Array.from({ length: ROWS }, (_, k) => row(k + 1));

// The transaction that must leave nothing behind: its last statement fails (id 1 exists).
export const FAILING_BLOCK = [
  "INSERT INTO people VALUES (1002, 2, 1002.25, 'rolled back')",
  'UPDATE people SET score = 0 WHERE grp = 1',
  "INSERT INTO people VALUES (1, 1, 1.25, 'duplicate key')",
];

// The typed-reply step (QUERY): a table of its own, dropped at the end of the step, so that the
// session's one table stays people.
export const TYPED = {
  create: 'CREATE TABLE typed_c (id INT PRIMARY KEY, f FLOAT, s TEXT)',
  insert: "INSERT INTO typed_c VALUES (1, 2.5, 'a, b'), (2, -0.125, 'plain')",
  select: 'SELECT id, f, s FROM typed_c WHERE id = 1',
  none: 'SELECT MAX(f) FROM typed_c WHERE id = 99',
  form2010: 'SELECT id,s FROM typed_c WHERE id = 1',
};

export class StepError extends Error {}

export function check(condition, what) {
  if (!condition) throw new StepError(what);
}

export function eq(actual, expected, what) {
  const a = JSON.stringify(actual);
  const e = JSON.stringify(expected);
  if (a !== e) throw new StepError(`${what}: expected ${e}, got ${a}`);
}

/** Row lists are compared one by one, so a mismatch names the first wrong row, not 1,000 of them. */
export function eqRows(actual, expected, what) {
  check(Array.isArray(actual), `${what}: expected an array of rows, got ${JSON.stringify(actual)}`);
  for (let k = 0; k < Math.max(actual.length, expected.length); k++) {
    if (actual[k] !== expected[k]) {
      throw new StepError(`${what}: row ${k + 1} of ${expected.length} expected ${JSON.stringify(expected[k])}, `
        + `got ${JSON.stringify(actual[k])} (${actual.length} rows in all)`);
    }
  }
}

/** "key:value" lines of an INFO reply (for clients without an INFO parser of their own). */
export function parseInfo(text) {
  const fields = {};
  for (const line of String(text).split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0 && !line.startsWith('#')) fields[line.slice(0, colon)] = line.slice(colon + 1);
  }
  return fields;
}

/** One field of a CLIENT INFO line ("id=7 addr=... resp=3 ..."). */
export function clientField(line, key) {
  return String(line).trim().split(' ').find((kv) => kv.startsWith(`${key}=`))?.slice(key.length + 1);
}

/** Runs the steps in order; a failed connect stops the session, any other failure is reported and the
 * session goes on, so one run shows every step that fails. Sets the exit code. */
export async function runSession(client, steps, close) {
  let failed = 0;
  for (const [name, fn] of steps) {
    try {
      await fn();
      console.log(`${client}: ok   ${name}`);
    } catch (e) {
      failed++;
      const why = e instanceof StepError ? e.message : `${e?.constructor?.name}: ${e?.message}`;
      console.log(`${client}: FAIL ${name}: ${why}`);
      if (name === 'connect') break;
    }
  }
  try {
    await close();
  } catch (e) {
    // a client that never connected may refuse to close; the steps already said why
  }
  console.log(`${client}: ${failed === 0 ? 'all steps passed' : `${failed} step(s) failed`}`);
  process.exitCode = failed === 0 ? 0 : 1;
}

/**
 * The typed-reply step, given the client's QUERY call and what its FLOAT 2.5 decodes to: the
 * number 2.5 when it reads RESP3 doubles as numbers, the text '2.5' when it gets (or, as ioredis by
 * default, maps the double to) a bulk string.
 */
export function typedStep(name, { sql, query, float }) {
  return [name, async () => {
    eq(await sql(TYPED.create), 'OK', 'CREATE TABLE typed_c');
    eq(await sql(TYPED.insert), 'OK', 'INSERT INTO typed_c');
    const reply = await query(TYPED.select);
    eq(reply, [['id', 'f', 's'], ['INT', 'FLOAT', 'TEXT'], [1, float, 'a, b']], `QUERY "${TYPED.select}"`);
    check(Number.isInteger(reply[2][0]), `id decodes as an integer, got ${typeof reply[2][0]}`);
    check(typeof reply[2][1] === typeof float, `f decodes as a ${typeof float}, got ${typeof reply[2][1]}`);
    const none = await query(TYPED.none);
    eq(none, [['MAX(f)'], ['FLOAT'], [null]], `QUERY "${TYPED.none}"`);
    check(none[2][0] === null, `MAX(f) over no rows decodes as null, got ${String(none[2][0])}`);
    eqRows(await sql(TYPED.form2010), ['1,a, b'], `SQL "${TYPED.form2010}" (the 2010 form)`);
    eq(await sql('DROP TABLE typed_c'), 2, 'DROP TABLE typed_c (the table and its primary key)');
  }];
}

/**
 * The steps every Node client runs the same way, given its own calls: {@code sql(statement)},
 * {@code query(statement)} (QUERY), {@code count()}, {@code ping()}, {@code info(section)}, the class
 * its errors come as, and what its FLOAT 2.5 decodes to (see typedStep).
 */
export function sharedSteps({ sql, query, float, count, ping, info, ErrorType }) {
  return {
    typed: typedStep('typed reply (QUERY)', { sql, query, float }),
    readBack: ['read back every row', async () => {
      eqRows(await sql('SELECT * FROM people ORDER BY id'), allRows(), 'SELECT * ORDER BY id');
    }],
    update: ['update count', async () => {
      eq(await sql('UPDATE people SET score = score + 1 WHERE grp = 3'), 100, 'UPDATE ... WHERE grp = 3');
      eqRows(await sql('SELECT * FROM people WHERE id = 13'), [row(13, '14.25')], 'row 13 after the UPDATE');
    }],
    delete: ['delete count', async () => {
      eq(await sql('DELETE FROM people WHERE grp = 7'), 100, 'DELETE ... WHERE grp = 7');
      eq(await count(), 900, 'SELECT COUNT(*) after the DELETE');
    }],
    error: ['error reply', async () => {
      const e = await sql('SELECT * FROM nosuch').then(() => null, (err) => err);
      check(e instanceof ErrorType, `expected a${/^[AEIOU]/.test(ErrorType.name) ? 'n' : ''} ${ErrorType.name}, got ${e?.constructor?.name ?? 'a reply'}`);
      check(e.message.includes("'nosuch'"), `the error names the table: ${e.message}`);
      eq(await ping(), 'PONG', 'PING after the error');
    }],
    info: ['info', async () => {
      const server = parseInfo(await info('server'));
      check(/^\d+\.\d+/.test(server.redis_version ?? ''), `INFO server redis_version: ${server.redis_version}`);
      check(server.respsql_version, 'INFO server has respsql_version');
      const keyspace = parseInfo(await info('keyspace'));
      check(keyspace.db0?.startsWith('keys=1,'), `INFO keyspace db0 counts the one table: ${keyspace.db0}`);
      const tables = parseInfo(await info('tables'));
      check(tables.table_people?.startsWith('rows=900,'), `INFO tables table_people: ${tables.table_people}`);
    }],
  };
}
