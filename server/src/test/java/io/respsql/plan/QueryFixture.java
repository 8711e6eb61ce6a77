package io.respsql.plan;

import io.respsql.result.ResultColumns;
import io.respsql.result.ResultSink;
import io.respsql.sql.SqlParser;
import io.respsql.sql.tree.Statement;
import io.respsql.storage.Catalog;
import io.respsql.storage.Column;
import io.respsql.storage.ColumnSpec;
import io.respsql.storage.ColumnType;
import io.respsql.storage.DoubleColumn;
import io.respsql.storage.IntColumn;
import io.respsql.storage.Table;
import io.respsql.storage.TextColumn;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** Tables built straight in storage, and queries planned and run into a sink that prints rows. */
final class QueryFixture {
    final Catalog catalog = new Catalog();

    /** A table of INT, FLOAT and TEXT columns ("id int", "x float", "s text"); {@code pk} -1 for none. */
    Table table(String name, int pk, String... columns) {
        List<ColumnSpec> specs = new ArrayList<>();
        for (String c : columns) {
            String[] p = c.split(" ");
            specs.add(new ColumnSpec(p[0], ColumnType.parse(p[1]), false, null));
        }
        Table t = new Table(name, specs, pk);
        catalog.add(t);
        return t;
    }

    /** Adds a row; values are Integer, Double, String or null. */
    void row(Table t, Object... values) {
        int row = t.allocateRow();
        for (int i = 0; i < values.length; i++) {
            Column c = t.column(i);
            Object v = values[i];
            if (v == null) {
                c.setNull(row);
            } else if (c instanceof IntColumn ic) {
                ic.set(row, (Integer) v);
            } else if (c instanceof DoubleColumn dc) {
                dc.set(row, ((Number) v).doubleValue());
            } else {
                ((TextColumn) c).set(row, ((String) v).getBytes(StandardCharsets.UTF_8));
            }
        }
        t.indexRow(row);
    }

    void index(Table t, String name, String column) {
        t.createIndex(name, t.column(column));
        catalog.registerIndex(name, t);
    }

    PlannedQuery plan(String sql) {
        Statement st = SqlParser.parse(sql);
        if (st instanceof Statement.Explain e) {
            st = e.statement();
        }
        return StatementPlanner.plan(catalog, ((Statement.QueryStatement) st).query(), sql);
    }

    /** The rows, each as its values joined by '|' (NULL as "NULL"); a lone COUNT(*) as "count=N". */
    List<String> rows(String sql) {
        Printer p = new Printer();
        plan(sql).run(p);
        return p.rows;
    }

    List<String> explain(String sql) {
        return plan(sql).explain();
    }

    static final class Printer implements ResultSink {
        final List<String> rows = new ArrayList<>();
        ResultColumns columns;
        private StringBuilder row;
        private int values;

        @Override
        public void columns(ResultColumns columns, long rowCount) {
            this.columns = columns;
        }

        @Override
        public void beginRow() {
            row = new StringBuilder();
            values = 0;
        }

        private void sep() {
            if (values++ > 0) {
                row.append('|');
            }
        }

        @Override
        public void longValue(long v) {
            sep();
            row.append(v);
        }

        @Override
        public void doubleValue(double v) {
            sep();
            row.append(v);
        }

        @Override
        public void textValue(byte[] b, int off, int len) {
            sep();
            row.append(new String(b, off, len, StandardCharsets.UTF_8));
        }

        @Override
        public void nullValue() {
            sep();
            row.append("NULL");
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
            this.columns = columns;
            rows.add("count=" + count);
        }
    }
}
