package io.respsql.it.conformance;

import java.util.List;

/**
 * Turns a server's reply to a query into rows of values, the one place that knows the reply
 * form. A value is a {@link String}, {@link Long}, {@link Double} or {@code null} (SQL NULL);
 * {@link SltValues#format} prints it per the sqllogictest rules.
 */
interface ResultDecoder {
    /** The decoded reply: rows, or the reason there are none (an error reply, a non-result). */
    record Decoded(List<List<Object>> rows, String error) {
        static Decoded error(String text) {
            return new Decoded(null, text);
        }

        static Decoded rows(List<List<Object>> rows) {
            return new Decoded(rows, null);
        }

        boolean failed() {
            return error != null;
        }
    }

    /** Decodes {@code reply} (as {@link Reply#read} returns it) of a query with {@code columns} result columns. */
    Decoded decode(Object reply, int columns);

    /** The decoder named by {@code name} ({@code rows2010}, {@code typed}). */
    static ResultDecoder named(String name) {
        return switch (name) {
            case "rows2010" -> new CommaRowsDecoder();
            case "typed" -> new TypedRowsDecoder();
            default -> throw new IllegalArgumentException("unknown reply form '" + name + "' (rows2010, typed)");
        };
    }
}
