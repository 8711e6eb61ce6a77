package io.respsql.config;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class GlobTest {
    @Test
    void patterns() {
        assertTrue(Glob.matches("*", "anything", false));
        assertTrue(Glob.matches("max*", "maxclients", false));
        assertTrue(Glob.matches("*memory", "maxmemory", false));
        assertTrue(Glob.matches("p?rt", "port", false));
        assertFalse(Glob.matches("p?rt", "pt", false));
        assertTrue(Glob.matches("[ab]ind", "bind", false));
        assertFalse(Glob.matches("[^ab]ind", "bind", false));
        assertTrue(Glob.matches("[a-c]ind", "bind", false));
        assertTrue(Glob.matches("a\\*b", "a*b", false));
        assertFalse(Glob.matches("a\\*b", "axb", false));
        assertFalse(Glob.matches("save", "saves", false));
        assertTrue(Glob.matches("SAVE", "save", true));
        assertFalse(Glob.matches("SAVE", "save", false));
        assertTrue(Glob.matches("config|g*", "config|get", true));
        // an unterminated class ends at the pattern's end, as Redis 7's KEYS answers
        assertTrue(Glob.matches("[a", "a", false));
        assertTrue(Glob.matches("[*?", "*", false));
        assertTrue(Glob.matches("[^[[", "-", false));
        assertFalse(Glob.matches("[^[[", "[", false));
    }
}
