package io.respsql.sql;

import io.respsql.sql.tree.Statement;

/** Stub of the parser branch's contract (issue 10), so the write side compiles before it lands. */
public final class SqlParser {
    private SqlParser() {
    }

    public static Statement parse(String sql) {
        throw new UnsupportedOperationException("SqlParser not built yet");
    }
}
