package io.respsql.config;

import java.util.ArrayList;
import java.util.List;

/**
 * The {@code save} schedule: pairs of (seconds, changes), each meaning "take a background
 * snapshot when at least {@code changes} rows changed and {@code seconds} passed since the last
 * successful save". Empty when snapshots are not scheduled. Immutable.
 */
public final class SaveRules {
    /** One rule of the schedule. */
    public record Rule(long seconds, long changes) {
    }

    private final List<Rule> rules;

    private SaveRules(List<Rule> rules) {
        this.rules = List.copyOf(rules);
    }

    /** Parses a schedule known to be valid (defaults in code). */
    static SaveRules of(String text) {
        try {
            return parse(text);
        } catch (ConfigException e) {
            throw new IllegalArgumentException(e.getMessage());
        }
    }

    /** Parses {@code "3600 1 300 100"}; {@code ""} (or blanks) gives the empty schedule. */
    public static SaveRules parse(String text) throws ConfigException {
        String t = text.strip();
        List<Rule> rules = new ArrayList<>();
        if (t.isEmpty()) {
            return new SaveRules(rules);
        }
        String[] words = t.split("\\s+");
        if (words.length % 2 != 0) {
            throw new ConfigException("save needs <seconds> <changes> pairs, got " + words.length + " number(s)");
        }
        for (int i = 0; i < words.length; i += 2) {
            rules.add(new Rule(positive(words[i], "seconds"), positive(words[i + 1], "changes")));
        }
        return new SaveRules(rules);
    }

    private static long positive(String word, String what) throws ConfigException {
        try {
            long v = Long.parseLong(word);
            if (v > 0) {
                return v;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new ConfigException("save: " + what + " must be a positive integer, got '" + word + "'");
    }

    public List<Rule> rules() {
        return rules;
    }

    public boolean isEmpty() {
        return rules.isEmpty();
    }

    /** The first rule that asks for a save now, or null. */
    public Rule due(long changes, long millisSinceLastSave) {
        for (Rule r : rules) {
            if (changes >= r.changes() && millisSinceLastSave > r.seconds() * 1000) {
                return r;
            }
        }
        return null;
    }

    /** As {@code CONFIG GET save} shows it: {@code "3600 1 300 100"}, or empty. */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder();
        for (Rule r : rules) {
            if (sb.length() > 0) {
                sb.append(' ');
            }
            sb.append(r.seconds()).append(' ').append(r.changes());
        }
        return sb.toString();
    }
}
