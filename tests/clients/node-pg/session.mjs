// The node-postgres program of the PostgreSQL client matrix (tests/clients/pg-run.sh): `pg` with
// its defaults (the extended protocol for parameterized queries, text results parsed by pg-types:
// int8 and numeric as strings, date/timestamp as Date in local time) and pg-copy-streams for COPY,
// against PGHOST/PGPORT/PGUSER/PGDATABASE (pg reads them). Steps: tables, COPY in and out,
// typed values read back, errors as pg's DatabaseError with their SQLSTATE (err.code), and the
// cancel of a long query (Client#cancel: a CancelRequest on a connection of its own).
// The transaction step (BEGIN/COMMIT/ROLLBACK) runs unless PG_CLIENTS_TX=0.
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import copyStreams from 'pg-copy-streams';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const CSV = path.join(HERE, '..', 'pg', 'items.csv');
let failures = 0;

function step(name, expected, actual) {
  const e = JSON.stringify(expected);
  const a = JSON.stringify(actual);
  if (e === a) {
    console.log(`node-pg: ok   ${name}`);
  } else {
    console.log(`node-pg: FAIL ${name}\n    expected ${e}\n    got      ${a}`);
    failures++;
  }
}

const pad = (n, w = 2) => String(n).padStart(w, '0');
// pg parses date and timestamp (without time zone) as local time: print them back the same way
const local = (d) => d === null ? null : `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} `
    + `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}.${pad(d.getMilliseconds(), 3)}`;

const client = new pg.Client();
await client.connect();
try {
  await client.query(`CREATE TABLE pc_items (id INT PRIMARY KEY, name TEXT NOT NULL, note TEXT, born DATE,
      seen TIMESTAMP, score FLOAT, price NUMERIC(10,2), ok BOOLEAN)`);
  const into = client.query(copyStreams.from('COPY pc_items FROM STDIN WITH (FORMAT csv, HEADER)'));
  await pipeline(fs.createReadStream(CSV), into);
  step('COPY FROM STDIN (pg-copy-streams): rows', 4, into.rowCount);

  // a parameterized query: Parse/Bind/Execute
  const r = await client.query('SELECT id, name, note, born, seen, score, price, ok FROM pc_items WHERE id >= $1 ORDER BY id', [1]);
  step('typed values read back', [
    [1, 'plain', null, '2024-02-29 00:00:00.000', '2024-02-29 13:45:06.500', 0.1, '12345.67', true],
    [2, 'a, b', 'say "hi"\nline two', '1999-12-31 00:00:00.000', '2000-01-01 00:00:00.000', -2.5, '-0.05', false],
    [3, 'Łódź ✓ 東京 😀', '', '1970-01-01 00:00:00.000', '1970-01-01 00:00:00.000', 3.141592653589793, '0.00', true],
    [4, 'nulls', null, null, null, null, null, null],
  ], r.rows.map((x) => [x.id, x.name, x.note, local(x.born), local(x.seen), x.score, x.price, x.ok]));
  step('column type OIDs', [23, 25, 25, 1082, 1114, 701, 1700, 16], r.fields.map((f) => f.dataTypeID));
  const micro = await client.query("SELECT seen::text AS t FROM pc_items WHERE id = 3");
  step('a timestamp to the microsecond (as text)', '1970-01-01 00:00:00.000001', micro.rows[0].t);

  const odd = "it's a \\ back'slash\n\"ok\" ✓";
  const p = await client.query('SELECT $1::text AS a, $2::text AS b, $3::int AS c', [odd, null, 42]);
  step('parameters round-trip', [odd, null, 42], [p.rows[0].a, p.rows[0].b, p.rows[0].c]);

  const chunks = [];
  const out = client.query(copyStreams.to('COPY (SELECT * FROM pc_items ORDER BY id) TO STDOUT WITH (FORMAT csv, HEADER)'));
  out.on('data', (c) => chunks.push(c));
  await new Promise((resolve, reject) => { out.on('end', resolve); out.on('error', reject); });
  step('COPY TO STDOUT (pg-copy-streams): the file loaded, byte for byte', fs.readFileSync(CSV, 'utf8'),
      Buffer.concat(chunks).toString('utf8'));

  const errorOf = async (sql) => {
    try {
      await client.query(sql);
      return null;
    } catch (e) {
      return [e instanceof pg.DatabaseError ? 'DatabaseError' : e.constructor.name, e.code];
    }
  };
  step('unique violation', ['DatabaseError', '23505'], await errorOf("INSERT INTO pc_items (id, name) VALUES (1, 'again')"));
  step('syntax error', ['DatabaseError', '42601'], await errorOf('SELEC 1'));
  step('undefined table', ['DatabaseError', '42P01'], await errorOf('SELECT * FROM pc_nosuch'));
  step('the session goes on after errors', 4, (await client.query('SELECT count(*)::int AS n FROM pc_items')).rows[0].n);

  // Client#cancel(client, query) sends a CancelRequest on a connection of its own when the query is
  // the active one; one that reaches the server before the query does is lost, so it is sent again
  // until the query ends (at most 60 s)
  const values = [];
  for (let i = 1; i <= 3000; i++) values.push(`(${i},${i % 7})`);
  await client.query('CREATE TABLE pc_big (id INT PRIMARY KEY, v INT)');
  await client.query(`INSERT INTO pc_big VALUES ${values.join(',')}`);
  const long = new pg.Query('SELECT count(*) FROM pc_big a CROSS JOIN pc_big b CROSS JOIN pc_big c WHERE a.v + b.v + c.v = 1');
  const outcome = new Promise((resolve) => {
    long.on('error', (e) => resolve(['error', e.code]));
    long.on('end', () => resolve(['finished']));
  });
  client.query(long);
  let result = null;
  const deadline = Date.now() + 60_000;
  while (result === null && Date.now() < deadline) {
    new pg.Client().cancel(client, long);
    result = await Promise.race([outcome, new Promise((resolve) => setTimeout(() => resolve(null), 100))]);
  }
  step('Client#cancel of a long query', ['error', '57014'], result);
  step('the session goes on after the cancel', 3000, (await client.query('SELECT count(*)::int AS n FROM pc_big')).rows[0].n);

  if (process.env.PG_CLIENTS_TX !== '0') {
    await client.query('BEGIN');
    await client.query("INSERT INTO pc_items (id, name) VALUES (10, 'committed')");
    await client.query('COMMIT');
    await client.query('BEGIN');
    await client.query("INSERT INTO pc_items (id, name) VALUES (11, 'rolled back')");
    await client.query('ROLLBACK');
    const t = await client.query('SELECT name FROM pc_items WHERE id >= 10 ORDER BY id');
    step('transactions: COMMIT keeps, ROLLBACK takes back', ['committed'], t.rows.map((x) => x.name));
  }

  await client.query('DROP TABLE pc_items');
  await client.query('DROP TABLE pc_big');
} finally {
  await client.end();
}
process.exit(failures ? 1 : 0);
