package io.respsql.it;

import io.respsql.config.ServerConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code rename-command} lines of a configuration file disable or rename commands. */
class RenameCommandTest {
    @TempDir
    Path dir;

    private TestServer startWith(String configText) throws Exception {
        Path file = dir.resolve("respsql.conf");
        Files.writeString(file, configText);
        ServerConfig loaded = ServerConfig.fromArgs(file.toString());
        return TestServer.start(c -> loaded.renamedCommands().forEach(c::renameCommand));
    }

    @Test
    void emptyNameDisablesAndOtherNameRenames() throws Exception {
        try (TestServer s = startWith("""
                rename-command FLUSHALL ""
                rename-command flushdb ''
                rename-command CONFIG adm1n-config
                """); RespConnection c = s.raw()) {
            assertEquals("+OK\r\n", c.call("CREATE", "TABLE", "t", "(id int primary key)"));
            assertTrue(c.call("FLUSHALL").startsWith("-ERR unknown command 'FLUSHALL'"));
            assertTrue(c.call("FLUSHDB").startsWith("-ERR unknown command 'FLUSHDB'"));
            assertTrue(c.call("CONFIG", "GET", "port").startsWith("-ERR unknown command 'CONFIG'"));
            assertEquals("*2\r\n$10\r\nmaxclients\r\n$5\r\n10000\r\n", c.call("ADM1N-CONFIG", "GET", "maxclients"));
            assertEquals("+OK\r\n", c.call("adm1n-config", "SET", "maxclients", "500"));
            // Errors keep naming the command by its original name, as in Redis.
            assertEquals("-ERR wrong number of arguments for 'config' command\r\n", c.call("ADM1N-CONFIG"));
            assertEquals("-ERR wrong number of arguments for 'config|set' command\r\n",
                    c.call("ADM1N-CONFIG", "SET", "maxclients", "1", "port"));
            // The table survived: FLUSHALL never ran.
            assertEquals("*0\r\n", c.call("SELECT", "*", "FROM", "t"));
        }
    }

    @Test
    void renamingAnUnknownCommandFailsAtStart() throws Exception {
        Path file = dir.resolve("bad.conf");
        Files.writeString(file, "rename-command NOSUCH other\n");
        ServerConfig loaded = ServerConfig.fromArgs(file.toString());
        assertThrows(IllegalArgumentException.class,
                () -> TestServer.start(c -> loaded.renamedCommands().forEach(c::renameCommand)));
    }
}
