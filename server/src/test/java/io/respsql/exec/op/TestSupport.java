package io.respsql.exec.op;

import io.respsql.expr.EvalContext;
import io.respsql.expr.Expression;
import io.respsql.expr.SqlType;
import io.respsql.storage.Column;
import io.respsql.storage.ColumnType;
import io.respsql.storage.DoubleColumn;
import io.respsql.storage.IntColumn;
import io.respsql.storage.LongColumn;
import io.respsql.storage.Table;
import io.respsql.storage.TextColumn;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;

/**
 * Test-only leaves and a scan, until the expression and storage branches land: a column reader
 * whose NULLs come from a side bitmap (storage holds no NULL yet), constants, and a scan that
 * pushes every live slot of a table on one relation.
 */
public final class TestSupport {
    private TestSupport() {
    }

    /** A table with its NULLs kept beside it (one BitSet per column). */
    public static final class TestTable {
        public final Table table;
        final BitSet[] nulls;

        TestTable(Table table) {
            this.table = table;
            this.nulls = new BitSet[table.columnCount()];
            for (int i = 0; i < nulls.length; i++) {
                nulls[i] = new BitSet();
            }
        }

        /** Appends a row; {@code null} values go to the side bitmap. */
        public TestTable row(Object... values) {
            int row = table.allocateRow();
            for (int i = 0; i < values.length; i++) {
                Column c = table.column(i);
                Object v = values[i];
                if (v == null) {
                    nulls[i].set(row);
                } else if (c instanceof IntColumn) {
                    ((IntColumn) c).set(row, ((Number) v).intValue());
                } else if (c instanceof LongColumn) {
                    ((LongColumn) c).set(row, ((Number) v).longValue());
                } else if (c instanceof DoubleColumn) {
                    ((DoubleColumn) c).set(row, ((Number) v).doubleValue());
                } else {
                    ((TextColumn) c).set(row, ((String) v).getBytes(StandardCharsets.UTF_8));
                }
            }
            return this;
        }

        public Expression col(String name, int relation) {
            Column c = table.column(name);
            return new ColumnRead(c, relation, nulls[c.position()]);
        }

        public Operator scan(int relation) {
            return new Scan(table, relation);
        }
    }

    /** {@code spec}: "a:INT,b:TEXT,c:FLOAT,d:BIGINT". */
    public static TestTable table(String name, String spec) {
        List<String> names = new ArrayList<>();
        List<ColumnType> types = new ArrayList<>();
        for (String part : spec.split(",")) {
            String[] nt = part.split(":");
            names.add(nt[0]);
            types.add(ColumnType.valueOf(nt[1]));
        }
        return new TestTable(new Table(name, names, types, 0));
    }

    /** A work table (PK position 0 unused: rows are never indexed). */
    public static Table work(String spec) {
        return table("w", spec).table;
    }

    public static SqlType sqlType(Column c) {
        if (c instanceof IntColumn) {
            return SqlType.INT;
        }
        if (c instanceof LongColumn) {
            return SqlType.BIGINT;
        }
        if (c instanceof DoubleColumn) {
            return SqlType.DOUBLE;
        }
        return SqlType.TEXT;
    }

    /** Reads {@code c} of the row in {@code slots[relation]}; slot -1 and side-bitmap rows read as NULL. */
    static final class ColumnRead extends Expression {
        private final Column c;
        private final int relation;
        private final BitSet nulls;

        ColumnRead(Column c, int relation, BitSet nulls) {
            super(sqlType(c));
            this.c = c;
            this.relation = relation;
            this.nulls = nulls;
        }

        private int slot(EvalContext ctx) {
            int s = ctx.slots[relation];
            ctx.isNull = s < 0 || nulls.get(s);
            return s;
        }

        @Override
        public long evalLong(EvalContext ctx) {
            int s = slot(ctx);
            return ctx.isNull ? 0 : c.getLong(s);
        }

        @Override
        public double evalDouble(EvalContext ctx) {
            int s = slot(ctx);
            return ctx.isNull ? 0 : c.getDouble(s);
        }

        @Override
        public byte[] evalText(EvalContext ctx) {
            int s = slot(ctx);
            if (ctx.isNull) {
                return null;
            }
            TextColumn t = (TextColumn) c;
            ctx.textOffset = t.offset(s);
            ctx.textLength = t.length(s);
            return t.bytes(s); // null for the empty string, as storage gives it
        }

        @Override
        public long relations() {
            return 1L << relation;
        }

        @Override
        public int plainRelation() {
            return relation; // no plainColumn: batch readers would miss the side-bitmap NULLs
        }

        @Override
        public String describe() {
            return c.name();
        }
    }

    public static Expression constLong(long v) {
        return new Expression(SqlType.BIGINT) {
            @Override
            public long evalLong(EvalContext ctx) {
                ctx.isNull = false;
                return v;
            }

            @Override
            public String describe() {
                return Long.toString(v);
            }
        };
    }

    public static Expression constText(String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        return new Expression(SqlType.TEXT) {
            @Override
            public byte[] evalText(EvalContext ctx) {
                ctx.isNull = false;
                ctx.textOffset = 0;
                ctx.textLength = b.length;
                return b;
            }

            @Override
            public String describe() {
                return "'" + s + "'";
            }
        };
    }

    /** A NULL of {@code type}: every eval reports NULL. */
    public static Expression constNull(SqlType type) {
        return new Expression(type) {
            @Override
            public long evalLong(EvalContext ctx) {
                ctx.isNull = true;
                return 0;
            }

            @Override
            public double evalDouble(EvalContext ctx) {
                ctx.isNull = true;
                return 0;
            }

            @Override
            public byte[] evalText(EvalContext ctx) {
                ctx.isNull = true;
                return null;
            }

            @Override
            public String describe() {
                return "NULL";
            }
        };
    }

    /** Pushes every live slot of a table on one relation. */
    static final class Scan implements Operator {
        private final Table table;
        private final int relation;

        Scan(Table table, int relation) {
            this.table = table;
            this.relation = relation;
        }

        @Override
        public boolean run(EvalContext ctx, TupleConsumer out) {
            for (int row = table.rows().nextLive(0); row >= 0; row = table.rows().nextLive(row + 1)) {
                ctx.slots[relation] = row;
                if (!out.accept(ctx)) {
                    return false;
                }
            }
            return true;
        }

        @Override
        public long relations() {
            return 1L << relation;
        }

        @Override
        public void explain(List<String> lines, int depth) {
            lines.add("  ".repeat(depth) + "Scan " + table.name());
        }
    }

    /** A test table's value as {@link #read} gives it, null when its side bitmap (or storage) says NULL. */
    public static Object readNullable(TestTable t, int row, int col) {
        return t.nulls[col].get(row) ? null : read(t.table, row, col);
    }

    /** A work table's value as Long (integer columns), Double, String, or null when NULL. */
    public static Object read(Table t, int row, int col) {
        Column c = t.column(col);
        if (c.isNull(row)) {
            return null;
        }
        if (c instanceof IntColumn || c instanceof LongColumn) {
            return c.getLong(row);
        }
        if (c instanceof DoubleColumn) {
            return c.getDouble(row);
        }
        return ((TextColumn) c).getString(row);
    }

    /** Runs {@code op} and reads every pushed row of {@code t} (slot of {@code relation}). */
    public static List<List<Object>> collect(Operator op, Table t, int relation, int relations) {
        EvalContext ctx = new EvalContext(relations);
        List<List<Object>> rows = new ArrayList<>();
        op.run(ctx, c -> {
            List<Object> r = new ArrayList<>();
            for (int i = 0; i < t.columnCount(); i++) {
                r.add(read(t, c.slots[relation], i));
            }
            rows.add(r);
            return true;
        });
        return rows;
    }

    /** Runs {@code op} and records the slots of {@code relations} for every pushed tuple. */
    public static List<List<Integer>> slots(Operator op, int contextRelations, int... relations) {
        EvalContext ctx = new EvalContext(contextRelations);
        List<List<Integer>> out = new ArrayList<>();
        op.run(ctx, c -> {
            List<Integer> r = new ArrayList<>();
            for (int rel : relations) {
                r.add(c.slots[rel]);
            }
            out.add(r);
            return true;
        });
        return out;
    }

    public static List<Object> row(Object... values) {
        return Arrays.asList(values);
    }

    /** Whether storage can hold NULLs yet (the storage branch of issue 10). */
    public static boolean nullStorage() {
        try {
            Table t = work("a:INT");
            t.column(0).setNull(t.allocateRow());
            return true;
        } catch (UnsupportedOperationException e) {
            return false;
        }
    }

    /** Whether work tables can be truncated yet (the storage branch of issue 10). */
    public static boolean truncatable() {
        try {
            Table t = work("a:INT");
            t.allocateRow();
            t.truncate();
            return true;
        } catch (UnsupportedOperationException e) {
            return false;
        }
    }
}
