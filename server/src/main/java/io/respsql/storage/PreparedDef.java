package io.respsql.storage;

import java.util.List;

/**
 * A prepared statement as the database keeps it (PREPARE's result): its name, its SQL text with
 * {@code ?} marks, where each mark stands in the text, and each parameter's type as typed when it
 * was prepared. Kept with the tables and views because it is state like them: logged, replicated,
 * captured by snapshots and undone with a block. Storage never reads the text; the engine parses
 * and types it ({@code engine.PreparedStatements}). Immutable, so captures and undo entries share it.
 */
public record PreparedDef(String name, String text, int[] marks, List<Param> params) {
    /** One parameter: its column's type and name, or both null when the value decides (number or text). */
    public record Param(ColumnType type, String column) {
        public Param {
            if ((type == null) != (column == null)) {
                throw new IllegalArgumentException("a parameter has both a type and a column, or neither");
            }
        }
    }

    public PreparedDef {
        marks = marks.clone();
        params = List.copyOf(params);
        if (marks.length != params.size()) {
            throw new IllegalArgumentException(marks.length + " marks but " + params.size() + " parameters");
        }
        int prev = -1;
        for (int m : marks) {
            if (m <= prev || m >= text.length() || text.charAt(m) != '?') {
                throw new IllegalArgumentException("parameter mark at " + m + " is not a '?' of the text, in order");
            }
            prev = m;
        }
    }

    /** Where parameter {@code i}'s {@code ?} stands in the text. */
    public int mark(int i) {
        return marks[i];
    }

    public int paramCount() {
        return marks.length;
    }

    /** The record's own array; callers read it and never write it. */
    @Override
    public int[] marks() {
        return marks;
    }
}
