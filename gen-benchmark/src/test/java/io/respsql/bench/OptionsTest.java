package io.respsql.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class OptionsTest {

    @Test
    void defaultsAreThoseOf2010() throws Exception {
        Options o = Options.parse("-A", "OK", "-Q", "PING");
        assertEquals("127.0.0.1", o.host);
        assertEquals(6379, o.port);
        assertEquals(50, o.clients);
        assertEquals(10_000, o.requests);
        assertEquals(Options.KeyMode.NONE, o.keyMode);
        assertFalse(o.quiet);
        assertFalse(o.loop);
        assertTrue(o.progress);
        assertNull(o.jsonFile);
        assertEquals(ReplyType.OK, o.expect);
        assertEquals(List.of("PING"), o.words);
    }

    @Test
    void theSeedCommandLinesParse() throws Exception {
        Options ins = Options.parse("-q", "-c", "200", "-n", "10000000", "-s", "-m", "100", "-A", "OK",
                "-Q", "INSERT", "INTO", "message_list", "VALUES", "(000000000001,000000000001,4)");
        assertTrue(ins.quiet);
        assertEquals(200, ins.clients);
        assertEquals(10_000_000, ins.requests);
        assertEquals(Options.KeyMode.SEQUENTIAL, ins.keyMode);
        assertEquals(1, ins.step);
        assertArrayEquals(new long[] {100}, ins.moduli);
        assertEquals(List.of("INSERT", "INTO", "message_list", "VALUES", "(000000000001,000000000001,4)"),
                ins.words);

        Options upd = Options.parse("-c", "1", "-n", "100", "-s", "-A", "INT", "-Q", "UPDATE",
                "message_list", "SET", "count=100", "WHERE", "fk=000000000001");
        assertEquals(1, upd.clients);
        assertEquals(ReplyType.INT, upd.expect);
        assertEquals(6, upd.words.size());
    }

    @Test
    void everythingAfterQIsARequestWordEvenFlags() throws Exception {
        Options o = Options.parse("-h", "localhost", "-p", "7000", "-A", "LINE", "-Q", "GET", "-q", "--json");
        assertEquals("localhost", o.host);
        assertEquals(7000, o.port);
        assertFalse(o.quiet);
        assertNull(o.jsonFile);
        assertEquals(List.of("GET", "-q", "--json"), o.words);
    }

    @Test
    void keySources() throws Exception {
        assertEquals(Options.KeyMode.RANDOM, Options.parse("-r", "1000", "-A", "OK", "-Q", "X").keyMode);
        assertEquals(1000, Options.parse("-r", "1000", "-A", "OK", "-Q", "X").randomRange);
        Options i = Options.parse("-i", "5", "-A", "OK", "-Q", "X");
        assertEquals(Options.KeyMode.SEQUENTIAL, i.keyMode);
        assertEquals(5, i.step);
        assertEquals(5, Options.parse("-s", "-i", "5", "-A", "OK", "-Q", "X").step);
        assertArrayEquals(new long[] {100, 7}, Options.parse("-s", "-m", "100,7", "-A", "OK", "-Q", "X").moduli);
    }

    @Test
    void longOptions() throws Exception {
        Options o = Options.parse("--json", "/tmp/x.json", "--no-progress", "--threads", "2",
                "--transport", "nio", "--seed", "42", "--warmup", "0", "--progress-interval", "1.5",
                "-l", "--loops", "3", "-A", "MULTI", "-Q", "SELECT");
        assertEquals("/tmp/x.json", o.jsonFile);
        assertFalse(o.progress);
        assertEquals(2, o.threads);
        assertEquals(Options.Transport.NIO, o.transport);
        assertEquals(42L, o.seed);
        assertEquals(0, o.warmup);
        assertEquals(1.5, o.progressIntervalSeconds);
        assertTrue(o.loop);
        assertEquals(3, o.loopRounds);
        assertEquals(ReplyType.MULTI, o.expect);
        assertTrue(Options.parse("-l", "--seconds", "2.5", "-A", "OK", "-Q", "PING").loopSeconds > 2);
    }

    @Test
    void replyTypesAreCaseInsensitive() throws Exception {
        assertEquals(ReplyType.INT, Options.parse("-A", "int", "-Q", "X").expect);
        assertEquals(ReplyType.ANY, Options.parse("-A", "any", "-Q", "X").expect);
    }

    @Test
    void badCommandLinesAreRefused() {
        String[][] bad = {
            {"-Q", "PING"},                                   // no -A
            {"-A", "OK"},                                     // no -Q
            {"-A", "OK", "-Q"},                               // -Q without words
            {"-A", "BOOL", "-Q", "X"},                        // unknown reply type
            {"-c", "0", "-A", "OK", "-Q", "X"},
            {"-n", "0", "-A", "OK", "-Q", "X"},
            {"-n", "ten", "-A", "OK", "-Q", "X"},
            {"-p", "70000", "-A", "OK", "-Q", "X"},
            {"-c"},                                           // missing value
            {"-r", "10", "-s", "-A", "OK", "-Q", "X"},        // two key sources
            {"-r", "10", "-i", "2", "-A", "OK", "-Q", "X"},
            {"-m", "10", "-A", "OK", "-Q", "X"},              // -m without a key source
            {"-s", "-m", "0", "-A", "OK", "-Q", "X"},
            {"-s", "-m", "10,x", "-A", "OK", "-Q", "X"},
            {"-l", "-A", "OK", "-Q", "X"},                    // -l unbounded
            {"--loops", "2", "-A", "OK", "-Q", "X"},          // bound without -l
            {"-r", "1000000000001", "-A", "OK", "-Q", "X"},   // more than 12 digits
            {"-s", "-n", "1000000000000", "-i", "2", "-A", "OK", "-Q", "X"},
            {"--bogus", "-A", "OK", "-Q", "X"},
            {"PING", "-A", "OK"},
        };
        for (String[] args : bad) {
            assertThrows(Options.UsageException.class, () -> Options.parse(args), String.join(" ", args));
        }
    }

    @Test
    void largestSequentialKeyFitsTwelveDigits() throws Exception {
        Options.parse("-s", "-n", "999999999999", "-A", "OK", "-Q", "X");
        assertThrows(Options.UsageException.class,
                () -> Options.parse("-s", "-n", "1000000000000", "-A", "OK", "-Q", "X"));
        Options.parse("-r", "1000000000000", "-A", "OK", "-Q", "X");
    }

    @Test
    void helpNeedsNothingElse() throws Exception {
        assertTrue(Options.parse("--help").help);
    }
}
