package io.respsql.it;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * RESP3 over a raw socket, frame by frame: HELLO 3 switches one connection to RESP3, the replies
 * then carry RESP3 types where Redis 7 sends them (the expected frames were taken from
 * redis-server 7.0 under the same commands), HELLO 2 switches back, and other connections stay
 * on RESP2.
 */
class Resp3Test extends ServerTestBase {
    private static String hello(int proto, long id) {
        return (proto == 3 ? "%7\r\n" : "*14\r\n")
                + "$6\r\nserver\r\n$7\r\nrespsql\r\n$7\r\nversion\r\n$5\r\n7.2.0\r\n"
                + "$5\r\nproto\r\n:" + proto + "\r\n$2\r\nid\r\n:" + id + "\r\n$4\r\nmode\r\n$10\r\nstandalone\r\n"
                + "$4\r\nrole\r\n$6\r\nmaster\r\n$7\r\nmodules\r\n*0\r\n";
    }

    private static long clientId(RespConnection c) throws Exception {
        return Long.parseLong(c.call("CLIENT", "ID").substring(1).trim());
    }

    @Test
    void helloThreeSwitchesToResp3AndHelloTwoBack() throws Exception {
        try (RespConnection c = server.raw()) {
            long id = clientId(c);
            assertEquals(hello(2, id), c.call("HELLO"));
            assertEquals("$-1\r\n", c.call("CLIENT", "GETNAME"));

            assertEquals(hello(3, id), c.call("HELLO", "3"));
            assertEquals(hello(3, id), c.call("HELLO"), "HELLO without a version answers in the current protocol");
            assertEquals("_\r\n", c.call("CLIENT", "GETNAME"));
            assertEquals("%1\r\n$10\r\nmaxclients\r\n$5\r\n10000\r\n", c.call("CONFIG", "GET", "maxclients"));

            assertEquals(hello(2, id), c.call("HELLO", "2"));
            assertEquals("$-1\r\n", c.call("CLIENT", "GETNAME"));
            assertEquals("*2\r\n$10\r\nmaxclients\r\n$5\r\n10000\r\n", c.call("CONFIG", "GET", "maxclients"));
            assertTrue(c.call("CLIENT", "INFO").startsWith("$"));
        }
    }

    @Test
    void helloThreeWithSetnameAndAuth() throws Exception {
        try (RespConnection c = server.raw()) {
            long id = clientId(c);
            assertEquals(hello(3, id), c.call("HELLO", "3", "AUTH", "default", "any", "SETNAME", "r3"));
            assertEquals("$2\r\nr3\r\n", c.call("CLIENT", "GETNAME"));
            String info = c.call("CLIENT", "INFO");
            assertTrue(info.contains(" name=r3 ") && info.contains(" resp=3 "), info);
        }
    }

    @Test
    void refusedHelloLeavesTheProtocolAsItWas() throws Exception {
        try (RespConnection c = server.raw()) {
            assertEquals("-NOPROTO unsupported protocol version\r\n", c.call("HELLO", "4"));
            assertEquals("-ERR Syntax error in HELLO option 'bogus'\r\n", c.call("HELLO", "3", "bogus"));
            assertEquals("-WRONGPASS invalid username-password pair or user is disabled.\r\n",
                    c.call("HELLO", "3", "AUTH", "alice", "x"));
            assertEquals("$-1\r\n", c.call("CLIENT", "GETNAME"), "still RESP2");
            assertTrue(c.call("HELLO", "3").startsWith("%7\r\n"));
            assertEquals("-NOPROTO unsupported protocol version\r\n", c.call("HELLO", "0"));
            assertEquals("-ERR Syntax error in HELLO option 'bogus'\r\n", c.call("HELLO", "2", "bogus"));
            assertEquals("_\r\n", c.call("CLIENT", "GETNAME"), "still RESP3");
        }
    }

    @Test
    void configGetIsAMap() throws Exception {
        try (RespConnection c = server.raw()) {
            c.call("HELLO", "3");
            assertEquals("%0\r\n", c.call("CONFIG", "GET", "no-such-option-*"));
            String two = c.call("CONFIG", "GET", "maxclients", "port");
            String port = Integer.toString(server.port());
            assertEquals("%2\r\n$10\r\nmaxclients\r\n$5\r\n10000\r\n$4\r\nport\r\n$" + port.length() + "\r\n" + port + "\r\n",
                    two);
        }
    }

    /** A verbatim string: {@code =<len>\r\ntxt:<text>\r\n}, len counting the four format bytes. */
    private static String verbatimText(String frame) {
        assertTrue(frame.startsWith("="), frame);
        int eol = frame.indexOf("\r\n");
        int len = Integer.parseInt(frame.substring(1, eol));
        byte[] body = frame.substring(eol + 2, frame.length() - 2).getBytes(StandardCharsets.UTF_8);
        assertEquals(len, body.length, "declared length");
        String text = new String(body, StandardCharsets.UTF_8);
        assertTrue(text.startsWith("txt:"), text);
        assertTrue(frame.endsWith("\r\n"));
        return text.substring(4);
    }

    @Test
    void infoAndClientListAreVerbatimText() throws Exception {
        try (RespConnection c = server.raw()) {
            c.call("HELLO", "3");
            String info = verbatimText(c.call("INFO", "server"));
            assertTrue(info.startsWith("# Server\r\n"), info);
            assertTrue(info.contains("\r\ntcp_port:" + server.port() + "\r\n"), info);
            assertEquals("=4\r\ntxt:\r\n", c.call("INFO", "no-such-section"));

            String me = verbatimText(c.call("CLIENT", "INFO"));
            assertTrue(me.startsWith("id=" + clientId(c) + " ") && me.contains(" resp=3 ") && me.endsWith("\n"), me);
            String list = verbatimText(c.call("CLIENT", "LIST"));
            assertTrue(list.contains(" cmd=client|list "), list);
            assertEquals("=4\r\ntxt:\r\n", c.call("CLIENT", "LIST", "TYPE", "pubsub"));
        }
    }

    @Test
    void commandInfoAndDocsUseSetsAndMaps() throws Exception {
        try (RespConnection c = server.raw()) {
            c.call("HELLO", "3");
            assertEquals("*2\r\n*10\r\n$4\r\nping\r\n:-1\r\n~1\r\n+fast\r\n:0\r\n:0\r\n:0\r\n"
                    + "~2\r\n+@fast\r\n+@connection\r\n~0\r\n~0\r\n~0\r\n_\r\n", c.call("COMMAND", "INFO", "ping", "nosuch"));
            assertEquals("%1\r\n$4\r\nping\r\n%3\r\n$7\r\nsummary\r\n$41\r\nReturns the server's liveliness response.\r\n"
                    + "$5\r\nsince\r\n$5\r\n0.1.0\r\n$5\r\ngroup\r\n$10\r\nconnection\r\n", c.call("COMMAND", "DOCS", "ping"));
            String config = c.call("COMMAND", "DOCS", "config");
            assertTrue(config.startsWith("%1\r\n$6\r\nconfig\r\n%4\r\n"), config);
            assertTrue(config.contains("$11\r\nsubcommands\r\n%5\r\n$10\r\nconfig|get\r\n%3\r\n"), config);
            // A command with subcommands lists them as an array, one without as an empty set.
            String info = c.call("COMMAND", "INFO", "config");
            assertTrue(info.startsWith("*1\r\n*10\r\n$6\r\nconfig\r\n:-2\r\n~0\r\n"), info);
            assertTrue(info.contains("~0\r\n~0\r\n*5\r\n*10\r\n$10\r\nconfig|get\r\n"), info);
            // Arguments are maps and their flags sets, as Redis 7 sends them (e.g. COMMAND DOCS GETEX).
            String select = c.call("COMMAND", "DOCS", "select");
            assertTrue(select.startsWith("%1\r\n$6\r\nselect\r\n%4\r\n"), select);
            assertTrue(select.contains("$9\r\narguments\r\n*"), select);
            assertTrue(select.contains("$5\r\nflags\r\n~1\r\n+optional\r\n"), select);
            assertFalse(select.contains("\r\n*4\r\n$4\r\nname\r\n"), select);
            // LATENCY HISTOGRAM: command -> {calls, histogram_usec: {bucket: cumulative}}.
            c.call("PING");
            String hist = c.call("LATENCY", "HISTOGRAM", "ping");
            assertTrue(hist.startsWith("%1\r\n$4\r\nping\r\n%2\r\n$5\r\ncalls\r\n:1\r\n$14\r\nhistogram_usec\r\n%"), hist);
        }
    }

    @Test
    void errorsSqlRowsAndCountsKeepTheirForm() throws Exception {
        try (RespConnection c = server.raw()) {
            c.call("HELLO", "3");
            assertEquals("-ERR unknown command 'NOSUCH', with args beginning with: 'x' \r\n", c.call("NOSUCH", "x"));
            assertEquals("+OK\r\n", c.call("CREATE", "TABLE", "r3t", "(id int primary key, v float, name text)"));
            assertEquals("+OK\r\n", c.call("INSERT", "INTO", "r3t", "VALUES", "(1, 1.5, 'a'),(2, 2, 'b')"));
            String rows = "*2\r\n$7\r\n1,1.5,a\r\n$5\r\n2,2,b\r\n";
            assertEquals(rows, c.call("SELECT", "*", "FROM", "r3t", "ORDER", "BY", "id"));
            assertEquals(":2\r\n", c.call("SELECT", "COUNT(*)", "FROM", "r3t"));
            assertEquals("*0\r\n", c.call("SELECT", "*", "FROM", "r3t", "WHERE", "id", "=", "9"));
            assertEquals(":1\r\n", c.call("UPDATE", "r3t", "SET", "v=v+1", "WHERE", "id=1"));
            assertEquals("+PONG\r\n", c.call("PING"));
            c.call("HELLO", "2");
            assertEquals("*2\r\n$7\r\n1,2.5,a\r\n$5\r\n2,2,b\r\n", c.call("SELECT", "*", "FROM", "r3t", "ORDER", "BY", "id"));
            assertEquals(":2\r\n", c.call("DROP", "TABLE", "r3t"));
        }
    }

    @Test
    void slowlogEntriesStayArraysAsInRedis() throws Exception {
        try (RespConnection c = server.raw()) {
            c.call("HELLO", "3", "SETNAME", "slow3");
            assertEquals("+OK\r\n", c.call("CONFIG", "SET", "slowlog-log-slower-than", "0"));
            try {
                c.call("SLOWLOG", "RESET");
                c.call("ECHO", "abc");
                String entry = c.call("SLOWLOG", "GET", "1");
                String addr = c.call("CLIENT", "INFO").split(" ")[1].substring("addr=".length());
                assertTrue(entry.matches("\\*1\r\n\\*6\r\n:\\d+\r\n:\\d+\r\n:\\d+\r\n\\*2\r\n\\$4\r\nECHO\r\n\\$3\r\nabc\r\n"
                        + "\\$" + addr.length() + "\r\n" + java.util.regex.Pattern.quote(addr) + "\r\n\\$5\r\nslow3\r\n"), entry);
            } finally {
                c.call("CONFIG", "SET", "slowlog-log-slower-than", "10000");
            }
        }
    }

    @Test
    void protocolBelongsToOneConnection() throws Exception {
        try (RespConnection three = server.raw(); RespConnection two = server.raw()) {
            three.call("HELLO", "3");
            // Pipelined on both, interleaved: each gets its own wire form.
            three.sendCommand("CLIENT", "GETNAME");
            two.sendCommand("CLIENT", "GETNAME");
            three.sendCommand("CONFIG", "GET", "maxclients");
            two.sendCommand("CONFIG", "GET", "maxclients");
            assertEquals("_\r\n", three.readReply());
            assertEquals("%1\r\n$10\r\nmaxclients\r\n$5\r\n10000\r\n", three.readReply());
            assertEquals("$-1\r\n", two.readReply());
            assertEquals("*2\r\n$10\r\nmaxclients\r\n$5\r\n10000\r\n", two.readReply());
        }
    }

    @Test
    void largeStreamedReplyUnderResp3() throws Exception {
        // A reply bigger than one chunk is handed over in pieces; the protocol must survive that.
        try (RespConnection c = server.raw()) {
            c.call("HELLO", "3");
            c.call("CREATE", "TABLE", "r3big", "(id int primary key, name text)");
            StringBuilder values = new StringBuilder();
            int n = 20_000;
            for (int i = 1; i <= n; i++) {
                values.append(i == 1 ? "" : ",").append('(').append(i).append(",'name-").append(i).append("')");
            }
            assertEquals("+OK\r\n", c.call("INSERT", "INTO", "r3big", "VALUES", values.toString()));
            String rows = c.call("SELECT", "*", "FROM", "r3big");
            assertTrue(rows.startsWith("*" + n + "\r\n$8\r\n1,name-1\r\n"), rows.substring(0, 40));
            assertTrue(rows.endsWith("$16\r\n20000,name-20000\r\n"));
            assertEquals("_\r\n", c.call("CLIENT", "GETNAME"), "still RESP3 after a streamed reply");
            c.call("DROP", "TABLE", "r3big");
        }
    }
}
