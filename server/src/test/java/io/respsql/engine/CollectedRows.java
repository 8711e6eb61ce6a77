package io.respsql.engine;

import io.respsql.result.FloatText;
import io.respsql.result.Outcome;
import io.respsql.result.ResultColumns;
import io.respsql.result.ResultSink;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The engine tests' result sink: keeps each row as its values joined by commas (NULL as
 * {@code NULL}, floats in their one text form), so a test asserts rows and the {@link Outcome}
 * without any wire form.
 */
final class CollectedRows implements ResultSink {
    final List<String> rows = new ArrayList<>();
    private final StringBuilder row = new StringBuilder();

    /** Runs {@code sql} into a fresh collection: the outcome, then the rows when it has any. */
    static String run(SqlEngine engine, String sql) {
        CollectedRows c = new CollectedRows();
        Outcome o = engine.execute(sql, c);
        return o.reply() == Outcome.Reply.ROWS ? "rows " + c.rows : o.toString();
    }

    @Override
    public void columns(ResultColumns columns, long rowCount) {
    }

    @Override
    public void beginRow() {
        row.setLength(0);
    }

    private StringBuilder next() {
        return row.length() > 0 ? row.append(',') : row;
    }

    @Override
    public void longValue(long v) {
        next().append(v);
    }

    @Override
    public void doubleValue(double v) {
        next().append(FloatText.text(v));
    }

    @Override
    public void textValue(byte[] b, int off, int len) {
        next().append(new String(b, off, len, StandardCharsets.UTF_8));
    }

    @Override
    public void nullValue() {
        next().append("NULL");
    }

    @Override
    public void endRow() {
        rows.add(row.toString());
    }

    @Override
    public void end() {
    }

    @Override
    public void countStar(ResultColumns columns, long count) {
        rows.add(Long.toString(count));
    }
}
