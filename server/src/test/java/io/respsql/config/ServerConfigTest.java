package io.respsql.config;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ServerConfigTest {
    @Test
    void defaults() throws Exception {
        ServerConfig c = ServerConfig.fromArgs();
        assertEquals(6379, c.port());
        assertEquals("127.0.0.1", c.bind());
        assertEquals(10000, c.maxClients());
        assertNull(c.configFile());
        assertEquals("3600 1 300 100 60 10000", c.option("save").get());
        assertEquals(".", c.option("dir").get());
        assertEquals("dump.rsql", c.option("dbfilename").get());
        assertEquals("no", c.option("APPENDONLY").get());
    }

    @Test
    void sizesTakeRedisUnits() throws Exception {
        assertEquals(1024, ConfigOption.parseBytes("1024"));
        assertEquals(1000, ConfigOption.parseBytes("1k"));
        assertEquals(1024, ConfigOption.parseBytes("1KB"));
        assertEquals(64L << 20, ConfigOption.parseBytes("64mb"));
        assertEquals(2_000_000_000L, ConfigOption.parseBytes("2g"));
        assertEquals(1L << 30, ConfigOption.parseBytes(" 1gb "));
        for (String bad : new String[] {"", "mb", "-1", "1.5mb", "1tb", "12zz", "99999999999999gb"}) {
            assertThrows(ConfigException.class, () -> ConfigOption.parseBytes(bad), bad);
        }
        ServerConfig c = ServerConfig.fromArgs("--maxmemory", "100mb", "--proto-max-bulk-len", "1mb");
        assertEquals(100L << 20, c.maxMemory());
        assertEquals(100L << 20, c.effectiveMaxMemory());
        assertEquals("1048576", c.option("proto-max-bulk-len").get());
        assertEquals(Runtime.getRuntime().maxMemory() / 10 * 7, new ServerConfig().effectiveMaxMemory());
        assertThrows(ConfigException.class, () -> ServerConfig.fromArgs("--proto-max-bulk-len", "1gb"));
    }

    @Test
    void outputBufferLimitClasses() throws Exception {
        ServerConfig c = new ServerConfig();
        assertEquals("normal 268435456 16777216 60 replica 268435456 67108864 60 pubsub 33554432 8388608 60",
                c.option("client-output-buffer-limit").get());
        c.option("client-output-buffer-limit").set("normal 1mb 512kb 5 pubsub 0 0 0");
        assertEquals(1L << 20, c.outputHardLimit());
        assertEquals(512L << 10, c.outputSoftLimit());
        assertEquals(5, c.outputSoftSeconds());
        // A bad group changes nothing, not even the good groups before it.
        for (String bad : new String[] {"normal 1mb 1mb", "normal 2mb 1mb 1 other 1 1 1", "normal x 1 1", "normal 1 1 -1"}) {
            assertThrows(ConfigException.class, () -> c.option("client-output-buffer-limit").set(bad), bad);
        }
        assertEquals(1L << 20, c.outputHardLimit());
    }

    @Test
    void flags() throws Exception {
        ServerConfig c = ServerConfig.fromArgs("--port", "7000", "--bind", "0.0.0.0", "--maxclients=12");
        assertEquals(7000, c.port());
        assertEquals("0.0.0.0", c.bind());
        assertEquals(12, c.maxClients());
    }

    @Test
    void helpAndVersionExitZero() {
        ConfigException help = assertThrows(ConfigException.class, () -> ServerConfig.fromArgs("--port", "1", "--help"));
        assertEquals(0, help.exitStatus());
        assertTrue(help.getMessage().startsWith("Usage: respsql-server"));
        assertTrue(help.getMessage().contains("--port <n>"));
        assertEquals(0, assertThrows(ConfigException.class, () -> ServerConfig.fromArgs("-v")).exitStatus());
    }

    @Test
    void usageErrorsExitTwo() {
        ConfigException unknown = assertThrows(ConfigException.class, () -> ServerConfig.fromArgs("--colour", "red"));
        assertEquals(2, unknown.exitStatus());
        assertEquals("Unknown option --colour (try --help)", unknown.getMessage());
        assertEquals(2, assertThrows(ConfigException.class, () -> ServerConfig.fromArgs("--port")).exitStatus());
        ConfigException range = assertThrows(ConfigException.class, () -> ServerConfig.fromArgs("--port", "70000"));
        assertEquals("Bad value '70000' for --port: argument must be between 0 and 65535 inclusive", range.getMessage());
        assertEquals(2, assertThrows(ConfigException.class, () -> ServerConfig.fromArgs("--port", "x")).exitStatus());
        assertEquals(2, assertThrows(ConfigException.class, () -> ServerConfig.fromArgs("--appendfsync", "sometimes")).exitStatus());
        assertEquals(2, assertThrows(ConfigException.class, () -> ServerConfig.fromArgs("--port", "1", "stray")).exitStatus());
    }

    @Test
    void configFileThenFlags(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("respsql.conf");
        Files.writeString(file, """
                # a comment
                port 7777

                  bind "127.0.0.2"
                maxclients 99
                save ""
                appendonly no
                """);
        ServerConfig c = ServerConfig.fromArgs(file.toString(), "--maxclients", "5");
        assertEquals(7777, c.port());
        assertEquals("127.0.0.2", c.bind());
        assertEquals(5, c.maxClients());
        assertEquals(file.toAbsolutePath(), c.configFile());
    }

    @Test
    void configFileErrorsNameTheLine(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("bad.conf");
        Files.writeString(file, "port 1\nfrobnicate yes\n");
        ConfigException e = assertThrows(ConfigException.class, () -> ServerConfig.fromArgs(file.toString()));
        assertEquals(file + ":2: unknown directive 'frobnicate'", e.getMessage());
        assertEquals(2, e.exitStatus());
        assertEquals(2, assertThrows(ConfigException.class,
                () -> ServerConfig.fromArgs(dir.resolve("missing.conf").toString())).exitStatus());
    }

    @Test
    void runtimeMutability() {
        ServerConfig c = new ServerConfig();
        assertTrue(c.option("maxclients").mutable());
        assertTrue(!c.option("port").mutable());
        assertNull(c.option("nosuch"));
    }

    @Test
    void requirepassFromFileAndFlag(@TempDir Path dir) throws Exception {
        ServerConfig d = new ServerConfig();
        assertEquals("", d.option("requirepass").get());
        assertEquals(false, d.passwordRequired());
        assertEquals(true, d.option("requirepass").mutable());
        Path file = dir.resolve("respsql.conf");
        Files.writeString(file, "requirepass \"from file\"\n");
        assertEquals("from file", ServerConfig.fromArgs(file.toString()).requirePass());
        ServerConfig c = ServerConfig.fromArgs(file.toString(), "--requirepass", "from flag");
        assertEquals("from flag", c.requirePass());
        assertEquals(true, c.passwordRequired());
    }

    @Test
    void protectedModeKey() throws Exception {
        assertEquals("yes", new ServerConfig().option("protected-mode").get());
        assertEquals(false, ServerConfig.fromArgs("--protected-mode", "no").protectedMode());
        assertEquals(true, ServerConfig.fromArgs("--protected-mode", "YES").protectedMode());
        assertThrows(ConfigException.class, () -> ServerConfig.fromArgs("--protected-mode", "maybe"));
    }

    @Test
    void renameCommandLines(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("respsql.conf");
        Files.writeString(file, """
                rename-command FLUSHALL ""
                rename-command Config hidden-config
                """);
        ServerConfig c = ServerConfig.fromArgs(file.toString());
        assertEquals(java.util.Map.of("flushall", "", "config", "hidden-config"), c.renamedCommands());
        Files.writeString(file, "rename-command FLUSHALL\n");
        ConfigException e = assertThrows(ConfigException.class, () -> ServerConfig.fromArgs(file.toString()));
        assertEquals(file + ":1: rename-command needs a command and a new name", e.getMessage());
    }

    @Test
    void snapshotKeys(@TempDir Path dir) throws Exception {
        ServerConfig c = ServerConfig.fromArgs("--dir", dir.toString(), "--dbfilename", "x.rsql", "--save", "60  5 10 1");
        assertEquals(dir.resolve("x.rsql"), c.snapshotPath());
        assertEquals("60 5 10 1", c.option("save").get());
        assertEquals(2, c.saveRules().rules().size());
        assertEquals(new SaveRules.Rule(10, 1), c.saveRules().due(1, 10_001));
        assertNull(c.saveRules().due(0, 100_000), "no change, no save");
        c.option("save").set("");
        assertTrue(c.saveRules().isEmpty());
        assertEquals("", c.option("save").get());

        assertEquals("save needs <seconds> <changes> pairs, got 1 number(s)",
                assertThrows(ConfigException.class, () -> c.option("save").set("60")).getMessage());
        assertEquals("save: changes must be a positive integer, got 'x'",
                assertThrows(ConfigException.class, () -> c.option("save").set("60 x")).getMessage());
        assertEquals("dbfilename must be a file name without path separators",
                assertThrows(ConfigException.class, () -> c.option("dbfilename").set("../dump.rsql")).getMessage());
        Path missing = dir.resolve("missing");
        assertEquals("no such directory '" + missing + "'",
                assertThrows(ConfigException.class, () -> c.option("dir").set(missing.toString())).getMessage());
        Files.writeString(missing, "a file");
        assertThrows(ConfigException.class, () -> c.option("dir").set(missing.toString()));
        assertEquals(dir.toString(), c.option("dir").get(), "refused values leave the key unchanged");
    }

    @Test
    void theShippedExampleConfigLoads() throws Exception {
        Path example = Path.of("..", "respsql.conf");
        assertTrue(Files.exists(example), "respsql.conf at the repository root");
        ServerConfig c = ServerConfig.fromArgs(example.toString());
        assertEquals(6379, c.port());
        assertEquals("3600 1 300 100 60 10000", c.option("save").get());
        assertEquals("dump.rsql", c.dbFilename());
    }

    @Test
    void replicationKeys() throws Exception {
        ServerConfig c = ServerConfig.fromArgs();
        assertNull(c.masterHost());
        assertEquals("", c.option("replicaof").get());
        assertEquals("yes", c.option("replica-read-only").get());
        assertEquals("1048576", c.option("repl-backlog-size").get());
        assertEquals("0", c.option("min-replicas-to-write").get());
        assertEquals("10", c.option("min-replicas-max-lag").get());
        ServerConfig r = ServerConfig.fromArgs("--replicaof", "10.0.0.1 6380", "--repl-backlog-size", "64mb",
                "--masterauth", "pw", "--replica-read-only", "no");
        assertEquals("10.0.0.1", r.masterHost());
        assertEquals(6380, r.masterPort());
        assertEquals("10.0.0.1 6380", r.option("replicaof").get());
        assertEquals(64L << 20, r.replBacklogSize());
        assertEquals("pw", r.masterAuth());
        assertEquals(false, r.replicaReadOnly());
        r.option("replicaof").set("no one");
        assertNull(r.masterHost());
        assertThrows(ConfigException.class, () -> r.option("replicaof").set("host 70000"));
        assertThrows(ConfigException.class, () -> r.option("replicaof").set("host"));
        assertThrows(ConfigException.class, () -> r.option("repl-backlog-size").set("1k"));
        assertEquals(false, r.option("replicaof").mutable());
    }

    @Test
    void ioTransportIsAutoEpollOrNioAndFixedAtStart() throws Exception {
        assertEquals("auto", new ServerConfig().ioTransport());
        assertEquals("nio", ServerConfig.fromArgs("--io-transport", "NIO").ioTransport());
        assertEquals("epoll", ServerConfig.fromArgs("--io-transport", "epoll").ioTransport());
        ConfigException bad = assertThrows(ConfigException.class, () -> ServerConfig.fromArgs("--io-transport", "kqueue"));
        assertEquals("Bad value 'kqueue' for --io-transport: io-transport must be auto, epoll or nio", bad.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new ServerConfig().ioTransport("select"));
        assertEquals(false, new ServerConfig().option("io-transport").mutable());
    }

    @Test
    void tlsKeysAsRedis() throws Exception {
        ServerConfig d = new ServerConfig();
        assertEquals(false, d.tlsEnabled());
        assertEquals(true, d.plainEnabled());
        assertEquals("yes", d.option("tls-auth-clients").get());
        assertEquals("no", d.option("tls-replication").get());
        ServerConfig c = ServerConfig.fromArgs("--port", "0", "--tls-port", "6380", "--tls-cert-file", "a.crt",
                "--tls-key-file", "a.key", "--tls-auth-clients", "OPTIONAL", "--tls-protocols", "TLSv1.3",
                "--tls-replication", "yes", "--tls-cluster", "no");
        assertEquals(6380, c.tlsPort());
        assertEquals(false, c.plainEnabled()); // port 0 with tls-port: TLS only
        assertEquals("optional", c.tlsAuthClients());
        assertEquals("TLSv1.3", c.tlsProtocols());
        assertEquals(true, c.tlsReplication());
        assertEquals(true, ServerConfig.fromArgs("--port", "0").plainEnabled()); // without TLS: any free port
        ConfigException bad = assertThrows(ConfigException.class, () -> ServerConfig.fromArgs("--tls-auth-clients", "maybe"));
        assertEquals("Bad value 'maybe' for --tls-auth-clients: argument must be 'yes', 'no' or 'optional'", bad.getMessage());
        bad = assertThrows(ConfigException.class, () -> ServerConfig.fromArgs("--tls-protocols", "TLSv1.2 SSLv3"));
        assertTrue(bad.getMessage().contains("unknown TLS protocol 'SSLv3'"), bad.getMessage());
        assertEquals(false, c.option("tls-port").mutable());
        assertEquals(true, c.option("tls-cert-file").mutable());
        assertThrows(IllegalArgumentException.class, () -> new ServerConfig().tlsPort(-2));
    }

    @Test
    void applyLiveReloadsTlsOnceForTheKeysItIsBuiltFrom() throws Exception {
        ServerConfig c = new ServerConfig();
        int[] reloads = {0};
        c.applyLive(java.util.List.of(c.option("tls-cert-file"))); // no TLS listener: nothing to reload
        c.tlsReload(() -> reloads[0]++);
        c.applyLive(java.util.List.of(c.option("tls-cert-file"), c.option("tls-key-file")));
        assertEquals(1, reloads[0]);
        c.applyLive(java.util.List.of(c.option("maxclients"), c.option("tls-handshake-timeout-ms")));
        assertEquals(1, reloads[0]);
        c.tlsReload(() -> {
            throw new ConfigException("cannot read tls-cert-file x");
        });
        ConfigException e = assertThrows(ConfigException.class, () -> c.applyLive(java.util.List.of(c.option("tls-ca-cert-file"))));
        assertEquals("cannot read tls-cert-file x", e.getMessage());
    }
}
