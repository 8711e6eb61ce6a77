package io.respsql.config;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

class SplitArgsTest {
    private static List<String> split(String line) {
        List<byte[]> parts = SplitArgs.split(line.getBytes(StandardCharsets.UTF_8));
        return parts == null ? null : parts.stream().map(b -> new String(b, StandardCharsets.UTF_8)).toList();
    }

    @Test
    void words() {
        assertEquals(List.of("SET", "a", "b"), split("  SET a\tb  "));
        assertEquals(List.of(), split("   "));
    }

    @Test
    void quotes() {
        assertEquals(List.of("ECHO", "hello world"), split("ECHO \"hello world\""));
        assertEquals(List.of("a\nb\t\"", "x"), split("\"a\\nb\\t\\\"\" x"));
        assertEquals(List.of("AB"), split("\"\\x41\\x42\""));
        assertEquals(List.of("it's"), split("'it\\'s'"));
        assertEquals(List.of("a\\nb"), split("'a\\nb'"));
        assertEquals(List.of("save", ""), split("save \"\""));
        assertEquals(List.of("foobar"), split("foo\"bar\""));
    }

    @Test
    void unbalanced() {
        assertNull(split("ECHO \"oops"));
        assertNull(split("ECHO 'oops"));
        assertNull(split("\"a\"b"));
    }
}
