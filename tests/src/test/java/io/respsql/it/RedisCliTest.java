package io.respsql.it;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The real redis-cli against the server. Skipped only where redis-cli is missing and the CI
 * environment variable is unset; on CI a missing redis-cli fails the test.
 */
class RedisCliTest extends ServerTestBase {
    @BeforeAll
    static void needsRedisCli() {
        RedisCli.assumeAvailable();
    }

    private static String cli(String... args) {
        RedisCli.Result r = RedisCli.run(server, List.of(args));
        assertEquals(0, r.exitCode(), r.output());
        return r.output();
    }

    @Test
    void ping() throws Exception {
        assertEquals("PONG\n", cli("PING"));
        assertEquals("hello world\n", cli("ECHO", "hello world"));
    }

    @Test
    void infoTables() throws Exception {
        String out = cli("INFO", "tables");
        assertTrue(out.startsWith("# Tables"), out);
    }

    @Test
    void info() throws Exception {
        String out = cli("INFO");
        assertTrue(out.contains("tcp_port:" + server.port()), out);
        assertTrue(out.contains("# Stats"), out);
    }

    @Test
    void selectConfigAndErrors() throws Exception {
        assertEquals("OK\n", cli("SELECT", "0"));
        assertEquals("save\n\n", cli("CONFIG", "GET", "save"));
        assertEquals("0\n", cli("DBSIZE"));
        assertTrue(cli("NOSUCH", "x").startsWith("ERR unknown command 'NOSUCH', with args beginning with: 'x' "));
    }

    @Test
    void clientNameInOneSession() throws Exception {
        // Several commands in one connection, read from stdin by redis-cli.
        RedisCli.Result r = RedisCli.run(server, List.of(), "CLIENT SETNAME cli\nCLIENT GETNAME\nPING\n");
        assertEquals("OK\ncli\nPONG\n", r.output());
    }
}
