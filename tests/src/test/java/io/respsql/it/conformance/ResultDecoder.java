package io.respsql.it.conformance;

import java.util.List;

/**
 * Turns a server's reply to a query into rows of values, the one place that knows the reply
 * form, and names the command that asks for that form. A value is a {@link String},
 * {@link Long}, {@link Double} or {@code null} (SQL NULL); {@link SltValues#format} prints it
 * per the sqllogictest rules.
 */
interface ResultDecoder {
    /**
     * The decoded reply: rows, or the reason there are none (an error reply, a non-result).
     * {@code types} are the column types the reply named ({@code INT}, {@code FLOAT}, ...), or
     * null for a reply form that names none (2010): then every value is text and says nothing
     * of its type.
     */
    record Decoded(List<List<Object>> rows, List<String> types, String error) {
        static Decoded error(String text) {
            return new Decoded(null, null, text);
        }

        static Decoded rows(List<List<Object>> rows) {
            return new Decoded(rows, null, null);
        }

        static Decoded typed(List<List<Object>> rows, List<String> types) {
            return new Decoded(rows, types, null);
        }

        boolean failed() {
            return error != null;
        }

        boolean typed() {
            return types != null;
        }
    }

    /** The command a query is sent with to get this reply form ({@code SQL}, {@code QUERY}). */
    String command();

    /** Decodes {@code reply} (as {@link Reply#read} returns it) of a query with {@code columns} result columns. */
    Decoded decode(Object reply, int columns);

    /** The reply form of {@code -D<property>}: {@code typed} (the default) or {@code 2010}. */
    static ResultDecoder fromProperty(String property) {
        return named(System.getProperty(property, "typed"));
    }

    /** The decoder named by {@code name}: {@code typed} (QUERY), {@code 2010} or {@code rows2010} (SQL). */
    static ResultDecoder named(String name) {
        return switch (name) {
            case "2010", "rows2010" -> new CommaRowsDecoder();
            case "typed" -> new TypedRowsDecoder();
            default -> throw new IllegalArgumentException("unknown reply form '" + name + "' (typed, 2010)");
        };
    }
}
