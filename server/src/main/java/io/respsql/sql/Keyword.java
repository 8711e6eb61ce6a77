package io.respsql.sql;

import java.util.Locale;

/**
 * The words the grammar gives a meaning to, as codes. The lexer classifies each word once
 * ({@link #lookup}) and the parser compares codes ({@code tok.is(Keyword.SELECT)}), never text.
 *
 * <p>A code is not a reservation: a keyword token is still an identifier, and every place that
 * expects a name or a value takes it as one. The 2010 dialect has unquoted text values and
 * tables or columns called {@code count}, {@code date} or {@code first}; a word acts as a
 * keyword only where the grammar asks for that keyword (SQLite's "fallback" idea, applied
 * everywhere). So adding words here changes nothing until a parse site asks for them.
 *
 * <p>Matching is ASCII case-insensitive, as in PostgreSQL and SQLite: {@code sElEcT} is
 * SELECT, while a non-ASCII look-alike such as {@code ınsert} (dotless i) is an identifier.
 */
public enum Keyword implements Token.Code {
    // statements and DDL
    CREATE, DROP, TABLE, INDEX, VIEW, IF, EXISTS, DESC, DESCRIBE, DUMP, SHOW, TABLES, INDEXES,
    INSERT, INTO, VALUES, RETURN, SIZE, SELECT, SCANSELECT, UPDATE, SET, DELETE, EXPLAIN,
    PRIMARY, KEY, UNIQUE, DEFAULT, CONSTRAINT, REFERENCES, FOREIGN, CHECK, COLLATE, REPLACE,
    TEMP, TEMPORARY, TRIGGER, REINDEX, ALTER, ADD, COLUMN, RENAME, TO, WITH, RECURSIVE, INDEXED,
    // writes (upsert)
    RETURNING, CONFLICT, DO, NOTHING,
    // query clauses
    FROM, WHERE, ORDER, BY, ASC, LIMIT, OFFSET, DISTINCT, ALL, AS, GROUP, HAVING,
    JOIN, ON, USING, LEFT, RIGHT, FULL, INNER, OUTER, CROSS, NATURAL,
    UNION, INTERSECT, EXCEPT, NULLS, FIRST, LAST,
    // window functions (issue "analytics at speed") and transactions
    OVER, PARTITION, WINDOW, ROWS, RANGE, ROW, PRECEDING, FOLLOWING, UNBOUNDED, CURRENT, FILTER,
    BEGIN, COMMIT, ROLLBACK, TRANSACTION,
    // expressions
    AND, OR, NOT, IN, BETWEEN, IS, ISNULL, NOTNULL, NULL, LIKE, GLOB, ESCAPE,
    CASE, WHEN, THEN, ELSE, END, CAST, TRUE, FALSE, ANY, SOME,
    // aggregates
    COUNT, SUM, MIN, MAX, AVG,
    // type names and typed literals
    INT, INTEGER, BIGINT, SMALLINT, TINYINT, FLOAT, REAL, DOUBLE, PRECISION, NUMERIC, DECIMAL,
    TEXT, VARCHAR, CHAR, CHARACTER, VARYING, BOOLEAN, TIMESTAMP, DATE, TIME, INTERVAL;

    /** The spelling, upper case (the enum name) and lower case: a token written either way reuses it. */
    final String upper = name();
    final String lower = name().toLowerCase(Locale.ROOT);

    /** Open-addressed table of keywords by {@link #hash}; size a power of two, at most half full. */
    private static final Keyword[] SLOTS;
    private static final int SLOT_MASK;
    private static final int LONGEST_WORD;

    static {
        Keyword[] all = values();
        int size = Integer.highestOneBit(all.length * 4);
        Keyword[] table = new Keyword[size];
        int longest = 0;
        for (Keyword k : all) {
            int i = hash(k.upper, 0, k.upper.length()) & (size - 1);
            while (table[i] != null) {
                i = (i + 1) & (size - 1);
            }
            table[i] = k;
            longest = Math.max(longest, k.upper.length());
        }
        SLOTS = table;
        SLOT_MASK = size - 1;
        LONGEST_WORD = longest;
    }

    /**
     * The keyword spelled by {@code s[start, end)} in any ASCII case, or null. Allocates nothing:
     * a word that is too long or has a character no keyword has is rejected on the way.
     */
    public static Keyword lookup(CharSequence s, int start, int end) {
        int len = end - start;
        if (len < 2 || len > LONGEST_WORD) {
            return null;
        }
        int h = 0;
        for (int i = start; i < end; i++) {
            char c = s.charAt(i);
            int folded = c | 0x20; // 'A'..'Z' -> 'a'..'z'; no other character lands in 'a'..'z'
            if (folded < 'a' || folded > 'z') {
                return null;
            }
            h = h * 31 + folded;
        }
        for (int i = mix(h) & SLOT_MASK; ; i = (i + 1) & SLOT_MASK) {
            Keyword k = SLOTS[i];
            if (k == null) {
                return null;
            }
            if (k.upper.length() == len && k.matches(s, start)) {
                return k;
            }
        }
    }

    /** Lookup of a whole string (for tests and callers outside the lexer). */
    public static Keyword lookup(CharSequence s) {
        return lookup(s, 0, s.length());
    }

    /** Compares letters only: lookup already checked every character is an ASCII letter. */
    private boolean matches(CharSequence s, int start) {
        for (int i = 0; i < upper.length(); i++) {
            if ((s.charAt(start + i) & ~0x20) != upper.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    /** The hash {@link #lookup} computes, over the lower-cased letters. */
    private static int hash(String word, int start, int end) {
        int h = 0;
        for (int i = start; i < end; i++) {
            h = h * 31 + (word.charAt(i) | 0x20);
        }
        return mix(h);
    }

    private static int mix(int h) {
        return h ^ (h >>> 9) ^ (h >>> 17);
    }
}
