package io.respsql.it;

import io.lettuce.core.RedisCommandExecutionException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** maxmemory: writes that grow memory get -OOM above it; reads and writes that free memory still run. */
class MaxMemoryTest extends ServerTestBase {
    private static final String OOM = "OOM command not allowed when used memory > 'maxmemory'.";

    @AfterEach
    void noLimit() {
        server.dispatch("CONFIG", "SET", "maxmemory", "0");
        server.dispatch("FLUSHALL");
    }

    private static String oomOf(String... command) {
        return assertThrows(RedisCommandExecutionException.class, () -> server.dispatch(command)).getMessage();
    }

    private static long field(String section, String name) {
        String info = (String) server.dispatch("INFO", section);
        for (String line : info.split("\r\n")) {
            if (line.startsWith(name + ":")) {
                return Long.parseLong(line.substring(name.length() + 1));
            }
        }
        throw new AssertionError(name + " missing from " + info);
    }

    @Test
    void configGetSet() {
        assertEquals(List.of("maxmemory", "0"), server.dispatch("CONFIG", "GET", "maxmemory"));
        assertEquals(List.of("maxmemory-policy", "noeviction"), server.dispatch("CONFIG", "GET", "maxmemory-policy"));
        assertEquals("OK", server.dispatch("CONFIG", "SET", "maxmemory", "1mb"));
        assertEquals(List.of("maxmemory", "1048576"), server.dispatch("CONFIG", "GET", "maxmemory"));
        assertEquals(1048576, field("memory", "maxmemory"));
        assertEquals(1048576, field("memory", "maxmemory_effective"));
        assertTrue(((String) server.dispatch("INFO", "memory")).contains("maxmemory_policy:noeviction\r\n"));
        assertTrue(oomOf("CONFIG", "SET", "maxmemory", "12zz").contains("memory value"));
        server.dispatch("CONFIG", "SET", "maxmemory", "0");
        // 0: the effective limit is 70% of the JVM's max heap.
        assertEquals(Runtime.getRuntime().maxMemory() / 10 * 7, field("memory", "maxmemory_effective"));
    }

    @Test
    void writesAreRefusedAboveTheLimitAndAllowedAgainAfterFreeing() {
        server.dispatch("CREATE", "TABLE", "m", "(id int primary key, name text)");
        server.dispatch("CREATE", "INDEX", "m:name", "ON", "m", "(name)");
        assertEquals("OK", server.dispatch("CONFIG", "SET", "maxmemory", "1mb"));
        long oomsBefore = errorstat("OOM");
        int inserted = 0;
        String refused = null;
        for (int batch = 0; batch < 1000 && refused == null; batch++) {
            StringBuilder sb = new StringBuilder("INSERT INTO m VALUES ");
            for (int i = 0; i < 100; i++) {
                int id = batch * 100 + i;
                sb.append(i == 0 ? "" : ",").append('(').append(id).append(",'name number ").append(id).append("')");
            }
            try {
                server.dispatch("SQL", sb.toString());
                inserted += 100;
            } catch (RedisCommandExecutionException e) {
                refused = e.getMessage();
            }
        }
        // Writes are checked against a figure the server refreshes every 100 ms (README): when the
        // batches above all ran before a refresh (a loaded machine), keep writing one row until it has.
        long deadline = System.nanoTime() + 10_000_000_000L;
        for (int id = 1_000_000; refused == null && System.nanoTime() < deadline; id++) {
            try {
                server.dispatch("SQL", "INSERT INTO m VALUES (" + id + ",'one more row')");
                inserted++;
            } catch (RedisCommandExecutionException e) {
                refused = e.getMessage();
            }
        }
        assertEquals(OOM, refused);
        assertTrue(inserted > 0);
        assertTrue(field("memory", "used_memory") > 1 << 20);
        // Every verb that grows memory is refused, with nothing changed.
        assertEquals(OOM, oomOf("INSERT", "INTO", "m", "VALUES", "(999999,'x')"));
        assertEquals(OOM, oomOf("UPDATE", "m", "SET", "name='y'", "WHERE", "id=1"));
        assertEquals(OOM, oomOf("CREATE", "TABLE", "other", "(id int)"));
        assertEquals(OOM, oomOf("SQL", "  insert into m values (999998,'x')"));
        assertEquals((long) inserted, server.dispatch("SELECT", "COUNT(*)", "FROM", "m"));
        assertEquals(errorstat("OOM"), oomsBefore + 5);
        // Reads and DELETE work.
        assertEquals(List.of("1,name number 1"), server.dispatch("SELECT", "*", "FROM", "m", "WHERE", "id = 1"));
        assertEquals(1L, server.dispatch("DELETE", "FROM", "m", "WHERE", "id = 1"));
        assertEquals(1L, server.dispatch("SQL", "DELETE FROM m WHERE id = 2"));
        // DROP frees the table's memory: writes work again.
        assertEquals(3L, server.dispatch("DROP", "TABLE", "m")); // the table, its primary and its secondary index
        assertEquals("OK", server.dispatch("CREATE", "TABLE", "m", "(id int primary key, name text)"));
        assertEquals("OK", server.dispatch("INSERT", "INTO", "m", "VALUES", "(1,'again')"));
    }

    private static long errorstat(String code) {
        String info = (String) server.dispatch("INFO", "errorstats");
        for (String line : info.split("\r\n")) {
            if (line.startsWith("errorstat_" + code + ":count=")) {
                return Long.parseLong(line.substring(line.indexOf('=') + 1));
            }
        }
        return 0;
    }
}
