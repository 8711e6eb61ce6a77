package io.respsql.result;

import java.util.List;

/**
 * The columns of a result: a name and a SQL type name per column, in select-list order. Made
 * once per statement by the planner; the 2010 reply form ignores it, the typed form sends it.
 */
public final class ResultColumns {
    private final String[] names;
    private final String[] types;

    public ResultColumns(List<String> names, List<String> types) {
        if (names.size() != types.size()) {
            throw new IllegalArgumentException(names.size() + " names, " + types.size() + " types");
        }
        this.names = names.toArray(new String[0]);
        this.types = types.toArray(new String[0]);
    }

    public int size() {
        return names.length;
    }

    /** The column's name: the column's own for a column reference, else the expression as written. */
    public String name(int i) {
        return names[i];
    }

    /** {@code INT}, {@code BIGINT}, {@code FLOAT} or {@code TEXT}. */
    public String type(int i) {
        return types[i];
    }
}
