package io.respsql.bench.soak;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.respsql.bench.Json;
import io.respsql.config.ServerConfig;
import io.respsql.net.RespSqlServer;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The soak against a real server in this JVM, on a free port. */
class SoakEndToEndTest {
    @TempDir
    Path tmp;

    record Run(int exit, String out, String err) {
    }

    private static Run soak(Consumer<ServerConfig> configure, String... args) {
        ServerConfig config = new ServerConfig().bind("127.0.0.1").port(0);
        configure.accept(config);
        try (RespSqlServer server = RespSqlServer.start(config)) {
            String[] all = new String[args.length + 2];
            all[0] = "--port";
            all[1] = String.valueOf(server.port());
            System.arraycopy(args, 0, all, 2, args.length);
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            int code = Soak.run(all, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
            return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
        }
    }

    @Test
    void aShortSoakPassesAndVerifiesTheTable() throws Exception {
        Path json = tmp.resolve("soak.json");
        Run r = soak(c -> { }, "--connections", "16", "--duration", "60", "--max-requests", "20000",
            "--seed-rows", "120", "--groups", "4", "--interval", "1", "--seed", "42", "--json", json.toString());
        assertEquals(0, r.exit(), r.out() + r.err());
        Map<String, Object> j = Json.obj(Json.parse(Files.readString(json)));
        assertEquals(true, j.get("ok"));
        assertEquals(20000.0, ((Number) Json.obj(j.get("all")).get("requests")).doubleValue());
        long perStatement = 0;
        for (Object figures : Json.obj(j.get("statements")).values()) {
            perStatement += ((Number) Json.obj(figures).get("requests")).longValue();
        }
        assertEquals(20000, perStatement);
        assertEquals("17", Json.obj(j.get("end")).get("connected_clients"));
        assertTrue(r.out().contains("soak: summary: 20000 requests"), r.out());
        assertTrue(r.out().matches("(?s).*soak: verified \\d+ rows and 64 fk-group counts against the model.*all match.*"),
            r.out());
        assertTrue(r.out().contains("soak: OK"), r.out());
        assertTrue(r.out().contains("connected_clients"), r.out());
    }

    @Test
    void aWrongReplyFailsTheRun() {
        // With UPDATE disabled, its replies are errors, not the matched-row counts the model expects.
        Run r = soak(c -> c.renameCommand("update", ""), "--connections", "4", "--duration", "30",
            "--max-requests", "2000", "--seed-rows", "10", "--mix", "1,1,5,1");
        assertEquals(1, r.exit(), r.out() + r.err());
        assertTrue(r.err().contains("soak: FAILED: connection"), r.err());
        assertTrue(r.err().contains("UPDATE soak SET v = v + 1 WHERE fk"), r.err());
        assertTrue(r.err().contains("ERR unknown command 'UPDATE'"), r.err());
    }
}
