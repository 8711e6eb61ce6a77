package clients;

import static clients.Session.COLUMNS;
import static clients.Session.FAILING_BLOCK;
import static clients.Session.ROWS;
import static clients.Session.check;
import static clients.Session.clientField;
import static clients.Session.eq;
import static clients.Session.eqRows;
import static clients.Session.row;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Pipeline;
import redis.clients.jedis.RedisProtocol;
import redis.clients.jedis.Response;
import redis.clients.jedis.Transaction;
import redis.clients.jedis.commands.ProtocolCommand;
import redis.clients.jedis.exceptions.JedisDataException;

/** jedis 5.x: {@code JedisSession 2} with its defaults (RESP2), {@code JedisSession 3} configured for RESP3. */
public final class JedisSession {
    private static final ProtocolCommand SQL = command("SQL");
    private static final ProtocolCommand CREATE = command("CREATE");
    private static final ProtocolCommand QUERY = command("QUERY");

    private final String protocol;
    private Jedis jedis;

    private JedisSession(String protocol) {
        this.protocol = protocol;
    }

    public static void main(String[] args) {
        String protocol = args.length > 0 ? args[0] : "2";
        JedisSession s = new JedisSession(protocol);
        int failed;
        try {
            failed = s.session().run();
        } finally {
            if (s.jedis != null) {
                s.jedis.close();
            }
        }
        System.exit(failed == 0 ? 0 : 1);
    }

    /** A command jedis does not know, by name. */
    private static ProtocolCommand command(String name) {
        byte[] raw = name.getBytes(StandardCharsets.US_ASCII);
        return () -> raw;
    }

    /** sendCommand gives raw replies: bulk and status strings as bytes, arrays as lists. */
    private static Object decode(Object reply) {
        if (reply instanceof byte[] b) {
            return new String(b, StandardCharsets.UTF_8);
        }
        if (reply instanceof List<?> list) {
            List<Object> out = new ArrayList<>(list.size());
            for (Object o : list) {
                out.add(decode(o));
            }
            return out;
        }
        return reply;
    }

    /** A whole statement as one argument. */
    private Object sql(String statement) {
        return decode(jedis.sendCommand(SQL, statement));
    }

    /** QUERY: the typed form (under RESP3 FLOATs come as Double). */
    private Object query(String statement) {
        return decode(jedis.sendCommand(QUERY, statement));
    }

    @SuppressWarnings("unchecked")
    private List<String> sqlRows(String statement) {
        Object reply = sql(statement);
        check(reply instanceof List, statement + ": expected rows, got " + reply);
        return (List<String>) reply;
    }

    private Session session() {
        String name = "jedis-resp" + protocol;
        return new Session(name)
            .step("connect", () -> {
                HostAndPort at = new HostAndPort(Session.HOST, Session.PORT);
                jedis = protocol.equals("3")
                        ? new Jedis(at, DefaultJedisClientConfig.builder().protocol(RedisProtocol.RESP3).build())
                        : new Jedis(at);
                eq(jedis.ping(), "PONG", "PING");
            })
            .step("protocol", () -> eq(clientField(jedis.clientInfo(), "resp"), protocol, "protocol (CLIENT INFO resp=)"))
            .step("create table", () -> eq(decode(jedis.sendCommand(CREATE, "TABLE", "people", COLUMNS)), "OK", "CREATE TABLE"))
            .step("insert 1000 rows in one pipeline", () -> {
                List<Response<Object>> replies = new ArrayList<>(ROWS);
                try (Pipeline pipeline = jedis.pipelined()) {
                    for (int i = 1; i <= ROWS; i++) {
                        replies.add(pipeline.sendCommand(SQL, Session.insert(i)));
                    }
                    pipeline.sync();
                }
                for (int k = 0; k < ROWS; k++) {
                    eq(decode(replies.get(k).get()), "OK", "reply to INSERT of row " + (k + 1));
                }
                eq(sql("SELECT COUNT(*) FROM people"), (long) ROWS, "SELECT COUNT(*)");
            })
            .step("read back every row", () ->
                eqRows(sqlRows("SELECT * FROM people ORDER BY id"), Session.allRows(), "SELECT * ORDER BY id"))
            .step("update count", () -> {
                eq(sql("UPDATE people SET score = score + 1 WHERE grp = 3"), 100L, "UPDATE ... WHERE grp = 3");
                eqRows(sqlRows("SELECT * FROM people WHERE id = 13"), List.of(row(13, "14.25", "Smith, John 13")),
                        "row 13 after the UPDATE");
            })
            .step("delete count", () -> {
                eq(sql("DELETE FROM people WHERE grp = 7"), 100L, "DELETE ... WHERE grp = 7");
                eq(sql("SELECT COUNT(*) FROM people"), 900L, "SELECT COUNT(*) after the DELETE");
            })
            .step("error reply", () -> {
                try {
                    sql("SELECT * FROM nosuch");
                    check(false, "expected a JedisDataException, got a reply");
                } catch (JedisDataException e) {
                    check(e.getMessage().contains("'nosuch'"), "the error names the table: " + e.getMessage());
                }
                eq(jedis.ping(), "PONG", "PING after the error");
            })
            .step("info", () -> Session.checkInfo(jedis.info("server"), jedis.info("keyspace"), jedis.info("tables")))
            .step("typed reply (QUERY)", () -> {
                eq(sql(Session.TYPED_CREATE), "OK", "CREATE TABLE typed_c");
                eq(sql(Session.TYPED_INSERT), "OK", "INSERT INTO typed_c");
                Session.checkTyped(query(Session.TYPED_SELECT), query(Session.TYPED_NONE), protocol.equals("3") ? 2.5 : "2.5");
                eqRows(sqlRows(Session.TYPED_2010), List.of("1,a, b"), "SQL \"" + Session.TYPED_2010 + "\" (the 2010 form)");
                eq(sql("DROP TABLE typed_c"), 2L, "DROP TABLE typed_c (the table and its primary key)");
            })
            .step("multi/exec commits", () -> {
                List<Object> replies;
                try (Transaction tx = jedis.multi()) {
                    tx.sendCommand(SQL, "INSERT INTO people VALUES (1001, 1, 1001.25, 'in a transaction')");
                    tx.sendCommand(SQL, "UPDATE people SET name = 'committed' WHERE id = 1001");
                    replies = tx.exec();
                }
                eq(decode(replies), List.of("OK", 1L), "EXEC replies");
                eqRows(sqlRows("SELECT * FROM people WHERE id = 1001"), List.of(row(1001, "1001.25", "committed")), "row 1001");
            })
            .step("multi/exec with a failing statement leaves nothing behind", () -> {
                List<String> before = sqlRows("SELECT * FROM people ORDER BY id");
                // EXEC either fails as a whole (throws) or answers with the failed statement's error in place.
                try (Transaction tx = jedis.multi()) {
                    for (String statement : FAILING_BLOCK) {
                        tx.sendCommand(SQL, statement);
                    }
                    List<Object> replies = tx.exec();
                    check(replies != null && replies.stream().anyMatch(r -> r instanceof JedisDataException),
                            "EXEC of a failing block reports the error, got " + decode(replies));
                } catch (JedisDataException e) {
                    // the whole EXEC failed: that is the error surfaced
                }
                eqRows(sqlRows("SELECT * FROM people ORDER BY id"), before, "the table after the failed block");
            })
            .step("named ACL user (run.sh's reader)", () -> {
                DefaultJedisClientConfig.Builder config = DefaultJedisClientConfig.builder().user("reader").password("reader-pw");
                if (protocol.equals("3")) {
                    config.protocol(RedisProtocol.RESP3);
                }
                try (Jedis reader = new Jedis(new HostAndPort(Session.HOST, Session.PORT), config.build())) {
                    eq(reader.aclWhoAmI(), "reader", "ACL WHOAMI");
                    reader.sendCommand(SQL, "SELECT COUNT(*) FROM people WHERE id < 0"); // a read: allowed (throws if not)
                    try {
                        reader.sendCommand(SQL, "DELETE FROM people");
                        check(false, "DELETE as reader was not refused");
                    } catch (JedisDataException e) {
                        eq(e.getMessage(), "NOPERM User reader has no permissions to run the 'delete' command", "DELETE as reader");
                    }
                }
            });
    }
}
