package io.respsql.it;

import io.respsql.config.FsyncPolicy;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** AUTH user pass, HELLO AUTH, ACL's subcommands, the ACL file, CREATE USER/GRANT/REVOKE, and no password shown. */
class AclCommandsTest {
    private static final String WRONGPASS = "-WRONGPASS invalid username-password pair or user is disabled.\r\n";

    static String sha256(String s) throws Exception {
        byte[] d = MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
        StringBuilder sb = new StringBuilder();
        for (byte b : d) {
            sb.append(String.format("%02x", b));
        }
        return sb.toString();
    }

    private static String bulk(String s) {
        return "$" + s.length() + "\r\n" + s + "\r\n";
    }

    @Test
    void authAndHelloAsANamedUser() throws Exception {
        try (TestServer s = TestServer.start(c -> c.addUserLine("alice on >apw ~* +@all"))) {
            RespConnection c = s.raw();
            // no requirepass: the default user is nopass, connections start as it
            assertEquals(bulk("default"), c.call("ACL", "WHOAMI"));
            assertEquals(WRONGPASS, c.call("AUTH", "alice", "wrong"));
            assertEquals(bulk("default"), c.call("ACL", "WHOAMI"), "a failed AUTH changes nothing");
            assertEquals(WRONGPASS, c.call("AUTH", "nobody", "x"));
            assertEquals("+OK\r\n", c.call("AUTH", "alice", "apw"));
            assertEquals(bulk("alice"), c.call("ACL", "WHOAMI"));
            assertTrue(c.call("CLIENT", "INFO").contains(" user=alice "));
            // HELLO 3 AUTH user pass: RESP3 map, then WHOAMI
            RespConnection h = s.raw();
            assertEquals(WRONGPASS, h.call("HELLO", "3", "AUTH", "alice", "nope"));
            assertTrue(h.call("HELLO", "3", "AUTH", "alice", "apw").startsWith("%7\r\n"));
            assertEquals(bulk("alice"), h.call("ACL", "WHOAMI"));
            // RESET: back to the default user
            assertEquals("+RESET\r\n", h.call("RESET"));
            assertEquals(bulk("default"), h.call("ACL", "WHOAMI"));
            // the failed logins are in ACL LOG as reason auth
            String log = c.call("ACL", "LOG");
            assertTrue(log.contains("$6\r\nreason\r\n$4\r\nauth\r\n"), log);
            assertTrue(log.contains("$6\r\nobject\r\n$4\r\nAUTH\r\n"), log);
            assertTrue(log.contains("$8\r\nusername\r\n$6\r\nnobody\r\n"), log);
            // off: no new logins; the connection already in keeps working (Redis)
            assertEquals("+OK\r\n", s.raw().call("ACL", "SETUSER", "alice", "off"));
            assertEquals(WRONGPASS, s.raw().call("AUTH", "alice", "apw"));
            assertEquals("+PONG\r\n", c.call("PING"));
            // DELUSER closes its connections
            assertEquals(":1\r\n", s.raw().call("ACL", "DELUSER", "alice"));
            assertTrue(c.awaitClosedByServer(5000));
            assertEquals("-ERR The 'default' user cannot be removed\r\n", s.raw().call("ACL", "DELUSER", "default"));
            // jedis: named-user login
            assertEquals("+OK\r\n", s.raw().call("ACL", "SETUSER", "bob", "on", ">bpw", "+@all", "~*"));
            try (Jedis j = new Jedis(new HostAndPort(TestServer.HOST, s.port()),
                    DefaultJedisClientConfig.builder().user("bob").password("bpw").build())) {
                assertEquals("bob", j.aclWhoAmI());
            }
        }
    }

    @Test
    void requirepassIsTheDefaultUsersPassword() throws Exception {
        try (TestServer s = TestServer.start(c -> c.requirePass("rp").addUserLine("ro on >ropw %R~* +@read"))) {
            RespConnection c = s.raw();
            assertEquals("-NOAUTH Authentication required.\r\n", c.call("PING"));
            assertEquals("+OK\r\n", c.call("AUTH", "ro", "ropw"));
            assertEquals("-NOPERM User ro has no permissions to run the 'ping' command\r\n", c.call("PING"));
            RespConnection d = s.raw();
            assertEquals("+OK\r\n", d.call("AUTH", "rp"));
            String user = d.call("ACL", "GETUSER", "default");
            assertTrue(user.contains(sha256("rp")), user);
            assertFalse(user.contains("nopass"), user);
            // CONFIG SET requirepass: the default user's new password
            assertEquals("+OK\r\n", d.call("CONFIG", "SET", "requirepass", "rp2"));
            assertEquals(WRONGPASS, s.raw().call("AUTH", "default", "rp"));
            assertEquals("+OK\r\n", s.raw().call("AUTH", "default", "rp2"));
        }
    }

    @Test
    void setuserGetuserListAndCat() throws Exception {
        try (TestServer s = TestServer.start()) {
            RespConnection c = s.raw();
            assertEquals("+OK\r\n", c.call("ACL", "SETUSER", "u1", "on", ">p1", ">p2", "<p2", "%R~rep*", "~ord*", "+@read", "-dump"));
            String u = c.call("ACL", "GETUSER", "u1");
            assertTrue(u.startsWith("*12\r\n$5\r\nflags\r\n*1\r\n$2\r\non\r\n$9\r\npasswords\r\n*1\r\n$64\r\n" + sha256("p1")), u);
            assertTrue(u.contains(bulk("-@all +@read -dump")), u);
            assertTrue(u.contains(bulk("%R~rep* ~ord*")), u);
            assertFalse(u.contains("p1\r\n"), u);
            String list = c.call("ACL", "LIST");
            assertTrue(list.contains("user u1 on #" + sha256("p1")), list);
            assertTrue(list.contains("user default on nopass"), list);
            assertEquals("*2\r\n$7\r\ndefault\r\n$2\r\nu1\r\n", c.call("ACL", "USERS"));
            assertEquals("-ERR Error in ACL SETUSER modifier 'bogus': Syntax error\r\n", c.call("ACL", "SETUSER", "u1", "bogus"));
            assertEquals("-ERR Error in ACL SETUSER modifier '+nosuchcmd': Unknown command or category name in ACL\r\n",
                    c.call("ACL", "SETUSER", "u1", "+nosuchcmd"));
            assertEquals("-ERR Error in ACL SETUSER modifier '#abc': The password hash must be exactly 64 characters and "
                    + "contain only lowercase hexadecimal characters\r\n", c.call("ACL", "SETUSER", "u1", "#abc"));
            // a bad rule changes nothing
            assertEquals("+OK\r\n", c.call("ACL", "SETUSER", "u2", "on", "nopass"));
            assertTrue(c.call("ACL", "SETUSER", "u2", "off", "bogus").startsWith("-ERR"));
            assertTrue(c.call("ACL", "GETUSER", "u2").contains("$2\r\non\r\n"));
            assertEquals("$-1\r\n", c.call("ACL", "GETUSER", "nobody"));
            String cats = c.call("ACL", "CAT");
            assertTrue(cats.contains(bulk("read")) && cats.contains(bulk("dangerous")) && cats.contains(bulk("sql")), cats);
            String sql = c.call("ACL", "CAT", "sql");
            assertTrue(sql.contains(bulk("select")) && sql.contains(bulk("alter")) && sql.contains(bulk("truncate")), sql);
            String dangerous = c.call("ACL", "CAT", "dangerous");
            assertTrue(dangerous.contains(bulk("drop")) && dangerous.contains(bulk("flushall"))
                    && !dangerous.contains(bulk("select")), dangerous);
            assertEquals("-ERR Unknown category 'nope'\r\n", c.call("ACL", "CAT", "nope"));
            assertTrue(c.call("ACL", "GENPASS").startsWith("$64\r\n"));
            assertTrue(c.call("ACL", "GENPASS", "32").startsWith("$8\r\n"));
            // COMMAND INFO gives the SQL verbs' categories
            String info = c.call("COMMAND", "INFO", "drop");
            assertTrue(info.contains("@dangerous") && info.contains("@admin"), info);
        }
    }

    @Test
    void aclFileSaveLoadAndRestart() throws Exception {
        Path dir = Files.createTempDirectory("respsql-acl-");
        Path file = dir.resolve("users.acl");
        try (TestServer s = TestServer.start(c -> c.aclFile(file.toString()))) {
            RespConnection c = s.raw();
            assertEquals("+OK\r\n", c.call("ACL", "SETUSER", "carol", "on", ">cpw-secret", "%R~t*", "+@read"));
            assertEquals("+OK\r\n", c.call("ACL", "SAVE"));
            String text = Files.readString(file);
            assertTrue(text.contains("user carol on #" + sha256("cpw-secret")), text);
            assertTrue(text.contains("%R~t*"), text);
            assertFalse(text.contains("cpw-secret"), text);
            // a bad line: ACL LOAD refuses it and changes nothing
            Files.writeString(file, text + "user broken on +nosuchcommand\n");
            assertTrue(c.call("ACL", "LOAD").startsWith("-ERR " + file + ":"), "names the file and line");
            assertEquals("+OK\r\n", s.raw().call("AUTH", "carol", "cpw-secret"));
            Files.writeString(file, text);
            assertEquals("+OK\r\n", c.call("ACL", "LOAD"));
        }
        // a restart reads the file: carol logs in, over RESP and (SCRAM verifier kept) over pgwire
        try (TestServer s = TestServer.start(c -> c.aclFile(file.toString()).pgPort(0))) {
            RespConnection c = s.raw();
            assertEquals("+OK\r\n", c.call("AUTH", "carol", "cpw-secret"));
            assertTrue(c.call("CLIENT", "INFO").startsWith("-NOPERM User carol has no permissions"), "carol's own rules");
            try (java.sql.Connection pg = java.sql.DriverManager.getConnection("jdbc:postgresql://" + s.host() + ":"
                    + s.server().pgPort() + "/respsql", "carol", "cpw-secret")) {
                try (java.sql.ResultSet rs = pg.createStatement().executeQuery("SELECT 1")) {
                    assertTrue(rs.next());
                }
            }
        }
        // without the aclfile, no such user
        try (TestServer s = TestServer.start()) {
            assertEquals(WRONGPASS, s.raw().call("AUTH", "carol", "cpw-secret"));
        }
    }

    @Test
    void usersLinesAndAclfileTogetherAreRefused() {
        Exception e = org.junit.jupiter.api.Assertions.assertThrows(RuntimeException.class,
                () -> TestServer.start(c -> c.aclFile("/tmp/x.acl").addUserLine("a on nopass")));
        assertTrue(e.getMessage().contains("aclfile"), e.getMessage());
    }

    @Test
    void sqlCreateUserGrantRevoke() throws Exception {
        try (TestServer s = TestServer.start()) {
            RespConnection admin = s.raw();
            assertEquals("+OK\r\n", admin.call("SQL", "CREATE TABLE t (id int primary key, v text)"));
            assertEquals("+OK\r\n", admin.call("SQL", "CREATE TABLE other (id int primary key)"));
            assertEquals("+OK\r\n", admin.call("SQL", "INSERT INTO t VALUES (1, 'a')"));
            assertEquals("+OK\r\n", admin.call("SQL", "CREATE USER bob WITH LOGIN PASSWORD 'bob-pw'"));
            assertEquals("-ERR role \"bob\" already exists\r\n", admin.call("SQL", "CREATE USER bob PASSWORD 'x'"));
            RespConnection bob = s.raw();
            assertEquals("+OK\r\n", bob.call("AUTH", "bob", "bob-pw"));
            assertEquals("-NOPERM User bob has no permissions to run the 'select' command\r\n", bob.call("SQL", "SELECT * FROM t"));
            assertEquals("+OK\r\n", admin.call("SQL", "GRANT SELECT ON TABLE t TO bob"));
            String u = admin.call("ACL", "GETUSER", "bob");
            assertTrue(u.contains("%R~t\r\n") && u.contains("+select"), u);
            assertTrue(bob.call("SQL", "SELECT * FROM t").startsWith("*"));
            assertEquals("-NOPERM No permissions to access a key\r\n", bob.call("SQL", "SELECT * FROM other"));
            assertEquals("-NOPERM User bob has no permissions to run the 'insert' command\r\n",
                    bob.call("SQL", "INSERT INTO t VALUES (2, 'b')"));
            assertEquals("+OK\r\n", admin.call("SQL", "GRANT INSERT, UPDATE ON t TO bob"));
            assertTrue(admin.call("ACL", "GETUSER", "bob").contains("~t\r\n"), "R and W together: ~t");
            assertEquals("+OK\r\n", bob.call("SQL", "INSERT INTO t VALUES (2, 'b')"));
            assertEquals("-NOPERM User bob has no permissions to run the 'drop' command\r\n", bob.call("SQL", "DROP TABLE t"));
            assertEquals("-NOPERM User bob has no permissions to run the 'create' command\r\n",
                    bob.call("SQL", "CREATE USER eve PASSWORD 'e'"));
            assertEquals("+OK\r\n", admin.call("SQL", "REVOKE SELECT ON t FROM bob"));
            assertEquals("-NOPERM No permissions to access a key\r\n", bob.call("SQL", "SELECT * FROM t"));
            assertEquals("+OK\r\n", admin.call("SQL", "GRANT ALL PRIVILEGES ON t, other TO bob"));
            assertTrue(bob.call("SQL", "SELECT * FROM other").startsWith("*"));
            assertEquals("+OK\r\n", admin.call("SQL", "ALTER USER bob PASSWORD 'bob-pw2'"));
            assertEquals(WRONGPASS, s.raw().call("AUTH", "bob", "bob-pw"));
            assertEquals("+OK\r\n", s.raw().call("AUTH", "bob", "bob-pw2"));
            assertEquals("-ERR role \"nobody\" does not exist\r\n", admin.call("SQL", "GRANT SELECT ON t TO nobody"));
            assertEquals("+OK\r\n", admin.call("SQL", "CREATE ROLE r1")); // NOLOGIN
            assertTrue(admin.call("ACL", "GETUSER", "r1").contains("$3\r\noff\r\n"));
            assertEquals("+OK\r\n", admin.call("SQL", "DROP USER bob, r1"));
            assertEquals("+OK\r\n", admin.call("SQL", "DROP ROLE IF EXISTS bob"));
            assertEquals("-ERR role \"bob\" does not exist\r\n", admin.call("SQL", "DROP USER bob"));
            assertTrue(bob.awaitClosedByServer(5000), "a dropped user's connection is closed");
        }
    }

    @Test
    void noPasswordIsEverShown() throws Exception {
        Path dir = Files.createTempDirectory("respsql-acl-leak-");
        String[] secrets = {"Leak-SQL-pw-1", "Leak-ACL-pw-2", "Leak-ALTER-pw-3", "Leak-requirepass-4", "Leak-masterauth-5"};
        try (TestServer s = TestServer.start(c -> c.dir(dir).appendOnly(true).appendFsync(FsyncPolicy.ALWAYS)
                .aclFile(dir.resolve("users.acl").toString()).pgPort(0))) {
            RespConnection c = s.raw();
            assertEquals("+OK\r\n", c.call("CONFIG", "SET", "slowlog-log-slower-than", "0"));
            assertEquals("+OK\r\n", c.call("SQL", "CREATE TABLE t (id int primary key)"));
            assertEquals("+OK\r\n", c.call("SQL", "CREATE USER leaky PASSWORD '" + secrets[0] + "'"));
            assertEquals("+OK\r\n", c.call("ACL", "SETUSER", "leaky2", "on", ">" + secrets[1], "~*", "+@all"));
            assertEquals("+OK\r\n", c.call("SQL", "ALTER USER leaky WITH PASSWORD '" + secrets[2] + "'"));
            assertEquals("+OK\r\n", c.call("CONFIG", "SET", "masterauth", secrets[4]));
            assertEquals("+OK\r\n", c.call("CONFIG", "SET", "requirepass", secrets[3]));
            assertEquals("+OK\r\n", c.call("AUTH", secrets[3]));
            RespConnection named = s.raw();
            assertEquals("+OK\r\n", named.call("AUTH", "leaky2", secrets[1]));
            assertEquals("+OK\r\n", named.call("SQL", "INSERT INTO t VALUES (1)"));
            assertEquals("+OK\r\n", c.call("ACL", "SAVE"));
            StringBuilder shown = new StringBuilder();
            shown.append(c.call("INFO", "all"));
            shown.append(c.call("CONFIG", "GET", "*"));
            shown.append(c.call("ACL", "LIST"));
            shown.append(c.call("ACL", "GETUSER", "leaky"));
            shown.append(c.call("CLIENT", "LIST"));
            shown.append(c.call("SLOWLOG", "GET", "1000"));
            shown.append(c.call("ACL", "LOG"));
            String slowlog = c.call("SLOWLOG", "GET", "1000");
            assertTrue(slowlog.contains("INSERT INTO t VALUES (1)"), "the SLOWLOG records everything else: " + slowlog);
            try (Stream<Path> files = Files.walk(dir)) {
                for (Path f : (Iterable<Path>) files.filter(Files::isRegularFile)::iterator) {
                    shown.append(new String(Files.readAllBytes(f), StandardCharsets.ISO_8859_1));
                }
            }
            assertTrue(shown.toString().contains("INSERT INTO t VALUES (1)"), "the append-only file was read");
            for (String secret : secrets) {
                assertFalse(shown.toString().contains(secret), secret + " was shown");
            }
        }
    }
}
