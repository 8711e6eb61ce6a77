package clients;

import static clients.Session.COLUMNS;
import static clients.Session.FAILING_BLOCK;
import static clients.Session.ROWS;
import static clients.Session.check;
import static clients.Session.clientField;
import static clients.Session.eq;
import static clients.Session.eqRows;
import static clients.Session.row;

import io.lettuce.core.LettuceFutures;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.RedisURI;
import io.lettuce.core.TransactionResult;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.output.IntegerOutput;
import io.lettuce.core.output.NestedMultiOutput;
import io.lettuce.core.output.StatusOutput;
import io.lettuce.core.output.ValueListOutput;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.ProtocolKeyword;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** lettuce 6.x with its defaults: it opens with HELLO 3 and uses RESP3 when the server accepts it. */
public final class LettuceSession {
    private static final String NAME = "lettuce";
    private static final StringCodec CODEC = StringCodec.UTF8;
    private static final ProtocolKeyword SQL = keyword("SQL");
    private static final ProtocolKeyword CREATE = keyword("CREATE");
    private static final ProtocolKeyword QUERY = keyword("QUERY");

    private final RedisClient redis = RedisClient.create(RedisURI.create(Session.HOST, Session.PORT));
    private StatefulRedisConnection<String, String> connection;
    private RedisCommands<String, String> sync;

    public static void main(String[] args) {
        LettuceSession s = new LettuceSession();
        int failed;
        try {
            failed = s.session().run();
        } finally {
            if (s.connection != null) {
                s.connection.close();
            }
            s.redis.shutdown(Duration.ZERO, Duration.ofSeconds(2));
        }
        System.exit(failed == 0 ? 0 : 1);
    }

    /** A command lettuce does not know, by name. */
    private static ProtocolKeyword keyword(String name) {
        byte[] bytes = name.getBytes(StandardCharsets.US_ASCII);
        return new ProtocolKeyword() {
            @Override
            public byte[] getBytes() {
                return bytes;
            }

            @Override
            public String toString() {
                return name;
            }
        };
    }

    private static CommandArgs<String, String> args(String... values) {
        CommandArgs<String, String> a = new CommandArgs<>(CODEC);
        for (String v : values) {
            a.add(v);
        }
        return a;
    }

    // A whole statement as one argument, with the output type its reply has.
    private String sqlStatus(String statement) {
        return sync.dispatch(SQL, new StatusOutput<>(CODEC), args(statement));
    }

    private Long sqlCount(String statement) {
        return sync.dispatch(SQL, new IntegerOutput<>(CODEC), args(statement));
    }

    private List<String> sqlRows(String statement) {
        return sync.dispatch(SQL, new ValueListOutput<>(CODEC), args(statement));
    }

    /** QUERY: the typed form, nested lists as on the wire (RESP3 doubles as Double, nulls as null). */
    private List<Object> query(String statement) {
        return sync.dispatch(QUERY, new NestedMultiOutput<>(CODEC), args(statement));
    }

    /** run.sh's ACL user: logs in by name (HELLO 3 AUTH), reads, and is refused a DELETE. */
    private void namedUser() {
        RedisClient client = RedisClient.create(RedisURI.builder().withHost(Session.HOST).withPort(Session.PORT)
                .withAuthentication("reader", "reader-pw".toCharArray()).build());
        try (StatefulRedisConnection<String, String> c = client.connect()) {
            eq(c.sync().aclWhoami(), "reader", "ACL WHOAMI");
            try {
                c.sync().dispatch(SQL, new StatusOutput<>(CODEC), args("DELETE FROM people"));
                check(false, "DELETE as reader was not refused");
            } catch (RedisCommandExecutionException e) {
                eq(e.getMessage(), "NOPERM User reader has no permissions to run the 'delete' command", "DELETE as reader");
            }
        } finally {
            client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
        }
    }

    private Session session() {
        return new Session(NAME)
            .step("connect", () -> {
                connection = redis.connect();
                sync = connection.sync();
                eq(sync.ping(), "PONG", "PING");
            })
            .step("protocol", () -> eq(clientField(sync.clientInfo(), "resp"), "3", "protocol (CLIENT INFO resp=)"))
            .step("create table", () ->
                eq(sync.dispatch(CREATE, new StatusOutput<>(CODEC), args("TABLE", "people", COLUMNS)), "OK", "CREATE TABLE"))
            .step("insert 1000 rows in one pipeline", () -> {
                RedisAsyncCommands<String, String> async = connection.async();
                List<RedisFuture<String>> replies = new ArrayList<>(ROWS);
                connection.setAutoFlushCommands(false); // queue all, then write them at once
                try {
                    for (int i = 1; i <= ROWS; i++) {
                        replies.add(async.dispatch(SQL, new StatusOutput<>(CODEC), args(Session.insert(i))));
                    }
                    connection.flushCommands();
                    check(LettuceFutures.awaitAll(Duration.ofSeconds(30), replies.toArray(new RedisFuture[0])),
                            "the 1000 replies did not arrive within 30 s");
                } finally {
                    connection.setAutoFlushCommands(true);
                }
                for (int k = 0; k < ROWS; k++) {
                    eq(replies.get(k).get(), "OK", "reply to INSERT of row " + (k + 1));
                }
                eq(sqlCount("SELECT COUNT(*) FROM people"), (long) ROWS, "SELECT COUNT(*)");
            })
            .step("read back every row", () ->
                eqRows(sqlRows("SELECT * FROM people ORDER BY id"), Session.allRows(), "SELECT * ORDER BY id"))
            .step("update count", () -> {
                eq(sqlCount("UPDATE people SET score = score + 1 WHERE grp = 3"), 100L, "UPDATE ... WHERE grp = 3");
                eqRows(sqlRows("SELECT * FROM people WHERE id = 13"), List.of(row(13, "14.25", "Smith, John 13")),
                        "row 13 after the UPDATE");
            })
            .step("delete count", () -> {
                eq(sqlCount("DELETE FROM people WHERE grp = 7"), 100L, "DELETE ... WHERE grp = 7");
                eq(sqlCount("SELECT COUNT(*) FROM people"), 900L, "SELECT COUNT(*) after the DELETE");
            })
            .step("error reply", () -> {
                try {
                    sqlRows("SELECT * FROM nosuch");
                    check(false, "expected a RedisCommandExecutionException, got a reply");
                } catch (RedisCommandExecutionException e) {
                    check(e.getMessage().contains("'nosuch'"), "the error names the table: " + e.getMessage());
                }
                eq(sync.ping(), "PONG", "PING after the error");
            })
            .step("info", () -> Session.checkInfo(sync.info("server"), sync.info("keyspace"), sync.info("tables")))
            .step("typed reply (QUERY)", () -> {
                eq(sqlStatus(Session.TYPED_CREATE), "OK", "CREATE TABLE typed_c");
                eq(sqlStatus(Session.TYPED_INSERT), "OK", "INSERT INTO typed_c");
                Session.checkTyped(query(Session.TYPED_SELECT), query(Session.TYPED_NONE), 2.5);
                eqRows(sqlRows(Session.TYPED_2010), List.of("1,a, b"), "SQL \"" + Session.TYPED_2010 + "\" (the 2010 form)");
                eq(sqlCount("DROP TABLE typed_c"), 2L, "DROP TABLE typed_c (the table and its primary key)");
            })
            .step("multi/exec commits", () -> {
                eq(sync.multi(), "OK", "MULTI");
                sqlStatus("INSERT INTO people VALUES (1001, 1, 1001.25, 'in a transaction')");
                sqlCount("UPDATE people SET name = 'committed' WHERE id = 1001");
                TransactionResult result = sync.exec();
                check(!result.wasDiscarded(), "EXEC discarded the transaction");
                eq(result.stream().toList(), List.of("OK", 1L), "EXEC replies");
                eqRows(sqlRows("SELECT * FROM people WHERE id = 1001"), List.of(row(1001, "1001.25", "committed")), "row 1001");
            })
            .step("multi/exec with a failing statement leaves nothing behind", () -> {
                List<String> before = sqlRows("SELECT * FROM people ORDER BY id");
                eq(sync.multi(), "OK", "MULTI");
                for (String statement : FAILING_BLOCK) {
                    if (statement.startsWith("UPDATE")) {
                        sqlCount(statement);
                    } else {
                        sqlStatus(statement);
                    }
                }
                // EXEC either fails as a whole or answers with the failed statement's error in place.
                try {
                    TransactionResult result = sync.exec();
                    check(result.stream().anyMatch(r -> r instanceof RedisCommandExecutionException),
                            "EXEC of a failing block reports the error, got " + result.stream().toList());
                } catch (RedisCommandExecutionException e) {
                    // the whole EXEC failed: that is the error surfaced
                }
                eqRows(sqlRows("SELECT * FROM people ORDER BY id"), before, "the table after the failed block");
            })
            .step("named ACL user (run.sh's reader)", this::namedUser);
    }
}
