package io.respsql.command;

import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CommandTableTest {
    private static CommandSpec spec(String name, int arity) {
        return CommandSpec.builder(name, arity).handler((s, a, out) -> out.ok()).build();
    }

    @Test
    void caseInsensitiveLookupFromBytes() {
        List<CommandSpec> specs = new ArrayList<>();
        for (String n : List.of("ping", "echo", "select", "scanselect", "client", "config", "info")) {
            specs.add(spec(n, -1));
        }
        CommandTable t = new CommandTable(specs);
        assertEquals(7, t.size());
        assertSame(specs.get(0), t.lookup(Unpooled.wrappedBuffer("PiNg".getBytes(StandardCharsets.US_ASCII))));
        assertSame(specs.get(3), t.lookup("SCANSELECT"));
        assertNull(t.lookup("pin"));
        assertNull(t.lookup("pingg"));
        assertNull(t.lookup(""));
        assertEquals("client", t.all().get(0).name());
    }

    @Test
    void duplicatesRejected() {
        assertThrows(IllegalArgumentException.class, () -> new CommandTable(List.of(spec("a", 1), spec("A", 2))));
    }

    @Test
    void arityAndSubcommands() {
        CommandSpec exact = spec("get", 2);
        assertTrue(exact.arityAccepts(2));
        assertTrue(!exact.arityAccepts(3));
        CommandSpec atLeast = spec("mget", -2);
        assertTrue(atLeast.arityAccepts(2) && atLeast.arityAccepts(9) && !atLeast.arityAccepts(1));
        CommandSpec client = CommandSpec.builder("CLIENT", -2).handler((s, a, out) -> out.ok())
                .subcommand(spec("setname", 3)).build();
        CommandSpec setname = client.subcommands().lookup("SETNAME");
        assertEquals("client|setname", setname.fullName());
        assertSame(client, setname.parent());
    }

    @Test
    void argsParseIntegersLikeRedis() {
        CommandArgs a = new CommandArgs();
        for (String s : List.of("0", "-12", "007", "+1", "9223372036854775807", "9223372036854775808",
                "-9223372036854775808", "", "-", "1x", "-0")) {
            a.add(Unpooled.wrappedBuffer(s.getBytes(StandardCharsets.US_ASCII)));
        }
        assertTrue(a.isLong(0) && a.longValue(0) == 0);
        assertTrue(a.isLong(1) && a.longValue(1) == -12);
        assertTrue(!a.isLong(2));
        assertTrue(!a.isLong(3));
        assertTrue(a.isLong(4) && a.longValue(4) == Long.MAX_VALUE);
        assertTrue(!a.isLong(5));
        assertTrue(a.isLong(6) && a.longValue(6) == Long.MIN_VALUE);
        assertTrue(!a.isLong(7) && !a.isLong(8) && !a.isLong(9) && !a.isLong(10));
        assertTrue(a.is(1, "-12"));
        a.clear();
        assertEquals(0, a.count());
    }
}
