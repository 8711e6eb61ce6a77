package io.respsql.it;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The INFO fields operators rely on exist, and the counters move. */
class InfoFieldsTest {
    private static final String[] FIELDS = {
        "redis_version", "respsql_version", "uptime_in_seconds", "uptime_in_days", "process_id", "tcp_port",
        "config_file", "executable", "java_version", "java_vm", "java_gc",
        "connected_clients", "maxclients", "client_recent_max_input_buffer", "client_recent_max_output_buffer",
        "blocked_clients",
        "used_memory", "used_memory_human", "used_memory_peak", "maxmemory", "maxmemory_human", "maxmemory_policy",
        "maxmemory_effective", "jvm_heap_used", "jvm_heap_max", "table_bytes",
        "total_commands_processed", "instantaneous_ops_per_sec", "total_connections_received", "rejected_connections",
        "total_error_replies", "client_query_buffer_limit_disconnections", "client_output_buffer_limit_disconnections",
    };

    private static long field(String info, String name) {
        for (String line : info.split("\r\n")) {
            if (line.startsWith(name + ":")) {
                String v = line.substring(name.length() + 1);
                return v.startsWith("count=") ? Long.parseLong(v.substring(6)) : Long.parseLong(v);
            }
        }
        return 0;
    }

    @Test
    void fieldsExist() throws Exception {
        try (TestServer server = TestServer.start(); RespConnection c = server.raw()) {
            String info = c.call("INFO");
            for (String f : FIELDS) {
                assertTrue(info.contains("\r\n" + f + ":"), f + " missing from INFO");
            }
            assertTrue(info.contains("# Errorstats\r\n"), info);
            assertEquals(0, field(info, "blocked_clients"));
        }
    }

    @Test
    void errorstatsCountByCode() throws Exception {
        try (TestServer server = TestServer.start(config -> config.requirePass("secret"));
             RespConnection c = server.raw()) {
            assertTrue(c.call("PING").startsWith("-NOAUTH"));
            assertTrue(c.call("AUTH", "wrong").startsWith("-WRONGPASS"));
            assertEquals("+OK\r\n", c.call("AUTH", "secret"));
            assertTrue(c.call("NOSUCHCOMMAND").startsWith("-ERR"));
            assertTrue(c.call("SELECT", "*", "FROM", "nosuchtable").startsWith("-ERR"));
            String info = c.call("INFO", "errorstats");
            assertEquals(1, field(info, "errorstat_NOAUTH"), info);
            assertEquals(1, field(info, "errorstat_WRONGPASS"), info);
            assertEquals(2, field(info, "errorstat_ERR"), info);
            assertEquals(4, field(c.call("INFO", "stats"), "total_error_replies"));
            assertEquals("+OK\r\n", c.call("CONFIG", "RESETSTAT"));
            assertEquals(0, field(c.call("INFO", "errorstats"), "errorstat_ERR"));
        }
    }
}
