package io.respsql.result;

import java.util.List;

/**
 * The columns of a result: a name and a SQL type name per column, in select-list order. The
 * 2010 reply form never asks for them, so an implementation may work them out on first use.
 */
public interface ResultColumns {
    int size();

    /** The column's name: the column's own for a column reference, else the expression as written. */
    String name(int i);

    /** {@code INT}, {@code BIGINT}, {@code FLOAT} or {@code TEXT}. */
    String type(int i);

    /** Fixed names and types. */
    static ResultColumns of(List<String> names, List<String> types) {
        if (names.size() != types.size()) {
            throw new IllegalArgumentException(names.size() + " names, " + types.size() + " types");
        }
        String[] n = names.toArray(new String[0]);
        String[] t = types.toArray(new String[0]);
        return new ResultColumns() {
            @Override
            public int size() {
                return n.length;
            }

            @Override
            public String name(int i) {
                return n[i];
            }

            @Override
            public String type(int i) {
                return t[i];
            }
        };
    }
}
