package io.respsql.it;

import io.lettuce.core.RedisCommandExecutionException;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.resps.CommandInfo;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ServerCommandsTest extends ServerTestBase {
    @Test
    void commandCountAndInfo() {
        long count = server.lettuce().commandCount();
        assertTrue(count >= 20, "count " + count);
        assertEquals(count, server.jedis().commandCount());

        Map<String, CommandInfo> info = server.jedis().commandInfo("ping", "client", "nosuch");
        CommandInfo ping = info.get("ping");
        assertNotNull(ping);
        assertEquals(-1, ping.getArity());
        assertTrue(ping.getFlags().contains("fast"));
        assertNull(info.get("nosuch"));
        CommandInfo client = info.get("client");
        assertTrue(client.getSubcommands().containsKey("client|setname"));
        assertEquals(3, client.getSubcommands().get("client|setname").getArity());
    }

    @Test
    void commandListAndDocs() {
        List<?> names = (List<?>) server.dispatch("COMMAND", "LIST");
        assertTrue(names.contains("ping"));
        assertTrue(names.contains("config|get"));
        assertEquals(List.of("config|get"), server.dispatch("COMMAND", "LIST", "FILTERBY", "PATTERN", "config|g*"));
        List<?> docs = (List<?>) server.dispatch("COMMAND", "DOCS", "echo");
        assertEquals("echo", docs.get(0));
        List<?> echoDoc = (List<?>) docs.get(1);
        assertEquals(List.of("summary", "Returns the given string.", "since", "0.1.0", "group", "connection"), echoDoc);
        List<?> all = (List<?>) server.dispatch("COMMAND");
        assertEquals(server.lettuce().commandCount(), all.size());
    }

    @Test
    void configGet() {
        assertEquals(Map.of("save", ""), server.lettuce().configGet("save"));
        assertEquals(Map.of("appendonly", "no"), server.jedis().configGet("appendonly"));
        Map<String, String> all = server.lettuce().configGet("*");
        assertEquals(Integer.toString(server.port()), all.get("port"));
        assertEquals("127.0.0.1", all.get("bind"));
        assertEquals("1", all.get("databases"));
        assertEquals("0", all.get("maxmemory"));
        assertTrue(all.containsKey("maxclients"));
        assertEquals(Map.of("save", "", "appendonly", "no"), server.lettuce().configGet("save", "APPENDONLY"));
        assertEquals(Map.of("maxclients", all.get("maxclients"), "maxmemory", "0", "maxmemory-policy", "noeviction"),
                server.lettuce().configGet("max*"));
        assertTrue(server.lettuce().configGet("nosuch*").isEmpty());
    }

    @Test
    void configSet() throws Exception {
        try (RespConnection c = server.raw()) {
            assertEquals("+OK\r\n", c.call("CONFIG", "SET", "maxclients", "5000"));
            assertEquals("*2\r\n$10\r\nmaxclients\r\n$4\r\n5000\r\n", c.call("CONFIG", "GET", "maxclients"));
            assertEquals("-ERR CONFIG SET failed (possibly related to argument 'maxclients') - "
                    + "argument couldn't be parsed into an integer\r\n", c.call("CONFIG", "SET", "maxclients", "lots"));
            assertEquals("-ERR CONFIG SET failed (possibly related to argument 'port') - can't set immutable config\r\n",
                    c.call("CONFIG", "SET", "port", "1234"));
            assertEquals("-ERR Unknown option or number of arguments for CONFIG SET - 'nosuch'\r\n",
                    c.call("CONFIG", "SET", "nosuch", "1"));
            assertEquals("+OK\r\n", c.call("CONFIG", "SET", "maxclients", "10000"));
            assertEquals("+OK\r\n", c.call("CONFIG", "RESETSTAT"));
        }
    }

    @Test
    void dbsizeFlushAndTime() {
        assertEquals(0L, server.lettuce().dbsize());
        assertEquals(0L, server.jedis().dbSize());
        assertEquals("OK", server.lettuce().flushall());
        assertEquals("OK", server.jedis().flushDB());
        assertEquals("OK", server.dispatch("FLUSHALL", "ASYNC"));

        long before = System.currentTimeMillis() / 1000;
        List<String> time = server.lettuce().time();
        long after = System.currentTimeMillis() / 1000;
        long seconds = Long.parseLong(time.get(0));
        long micros = Long.parseLong(time.get(1));
        assertTrue(seconds >= before && seconds <= after, before + " " + time + " " + after);
        assertTrue(micros >= 0 && micros < 1_000_000, time.toString());
        assertEquals(2, server.jedis().time().size());
    }

    @Test
    void infoSections() {
        String all = server.lettuce().info();
        for (String header : List.of("# Server", "# Clients", "# Memory", "# Stats", "# Tables")) {
            assertTrue(all.contains(header + "\r\n"), header + " missing in\n" + all);
        }
        assertTrue(all.contains("tcp_port:" + server.port() + "\r\n"));
        assertTrue(all.contains("redis_version:"));
        assertTrue(all.contains("respsql_version:"));
        assertTrue(all.contains("process_id:" + ProcessHandle.current().pid() + "\r\n"));
        assertTrue(all.contains("java_gc:"));
        assertTrue(all.contains("used_memory:"));
        assertTrue(all.contains("used_memory_human:"));
        assertTrue(all.contains("used_memory_peak:"));
        assertTrue(all.contains("jvm_heap_max:"));
        assertTrue(all.contains("table_bytes:0\r\n"));

        String clients = server.jedis().info("clients");
        assertTrue(clients.startsWith("# Clients\r\n"), clients);
        assertFalse(clients.contains("# Server"));
        assertTrue(clients.contains("connected_clients:"));

        String two = (String) server.dispatch("INFO", "STATS", "memory");
        assertTrue(two.contains("# Memory") && two.contains("# Stats") && !two.contains("# Server"), two);
        for (String field : List.of("total_connections_received", "total_commands_processed",
                "instantaneous_ops_per_sec", "rejected_connections", "total_error_replies")) {
            assertTrue(two.contains(field + ":"), field);
        }
        assertEquals("", server.dispatch("INFO", "nosuchsection"));
        assertEquals("# Tables\r\n", server.dispatch("INFO", "tables"));
    }

    @Test
    void statsCountCommandsAndErrors() {
        var c = server.newLettuceConnection().sync();
        long commands = stat(c.info("stats"), "total_commands_processed");
        long errors = stat(c.info("stats"), "total_error_replies");
        c.ping();
        assertThrows(RedisCommandExecutionException.class, () -> TestServer.dispatch(c, "NOSUCHCOMMAND"));
        String after = c.info("stats");
        // INFO, INFO, PING, INFO were processed; the unknown command counts only as an error
        assertEquals(commands + 3, stat(after, "total_commands_processed"));
        assertEquals(errors + 1, stat(after, "total_error_replies"));
    }

    static long stat(String info, String field) {
        for (String line : info.split("\r\n")) {
            if (line.startsWith(field + ":")) {
                return Long.parseLong(line.substring(field.length() + 1));
            }
        }
        throw new AssertionError(field + " not in " + info);
    }
}
