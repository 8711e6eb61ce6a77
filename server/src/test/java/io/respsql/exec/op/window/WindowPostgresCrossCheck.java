package io.respsql.exec.op.window;

import io.respsql.expr.Expression;
import io.respsql.expr.SqlType;
import io.respsql.sql.SqlException;
import io.respsql.sql.tree.Expr.BoundKind;
import io.respsql.sql.tree.Expr.FrameUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static io.respsql.exec.op.window.WindowFunctionKind.*;
import static io.respsql.exec.op.window.WindowTestSupport.*;
import static org.junit.jupiter.api.Assertions.*;

/**
 * The operator against a live PostgreSQL 15 on random cases (ties, NULL keys, both NULL placements,
 * both directions, ROWS and RANGE frames with offsets over INT and DOUBLE keys). Runs only when
 * {@code -Drespsql.window.psql} gives the psql command line, e.g. after
 * <pre>
 *   su postgres -c "initdb -D /tmp/wpg/data -A trust -U postgres &&
 *     pg_ctl -D /tmp/wpg/data -o '-p 55432 -k /tmp/wpg -c listen_addresses=' -l /tmp/wpg/log start"
 *   mvn -B -q -o -pl server test -Dtest=WindowPostgresCrossCheck -Dsurefire.failIfNoSpecifiedTests=false \
 *     -Drespsql.window.psql="psql -h /tmp/wpg -p 55432 -U postgres"
 * </pre>
 * ROWS cases add {@code id} as the last ORDER BY key so every function is deterministic; RANGE
 * cases keep the ties and compare only what ties cannot change (aggregates over peer-closed
 * frames, RANK, DENSE_RANK).
 */
@EnabledIfSystemProperty(named = "respsql.window.psql", matches = ".+")
class WindowPostgresCrossCheck {
    static final BoundKind[] STARTS = {BoundKind.UNBOUNDED_PRECEDING, BoundKind.PRECEDING, BoundKind.CURRENT_ROW, BoundKind.FOLLOWING};
    static final BoundKind[] ENDS = {BoundKind.PRECEDING, BoundKind.CURRENT_ROW, BoundKind.FOLLOWING, BoundKind.UNBOUNDED_FOLLOWING};

    static String sqlBound(BoundKind k, long n) {
        switch (k) {
            case UNBOUNDED_PRECEDING: return "unbounded preceding";
            case PRECEDING: return n + " preceding";
            case CURRENT_ROW: return "current row";
            case FOLLOWING: return n + " following";
            default: return "unbounded following";
        }
    }

    static String v(Object o) {
        return o == null ? "null" : o.toString();
    }

    @Test
    void randomCasesMatchPostgres() throws Exception {
        Random rnd = new Random(7);
        StringBuilder sql = new StringBuilder();
        List<String> mine = new ArrayList<>();
        {
            for (int t = 0; t < 1500; t++) {
                int n = 1 + rnd.nextInt(25);
                Long[] id = new Long[n];
                Long[] p = new Long[n];
                Long[] o = new Long[n];
                Long[] val = new Long[n];
                Double[] d = new Double[n];
                int spread = 1 + rnd.nextInt(8);
                for (int i = 0; i < n; i++) {
                    id[i] = (long) i;
                    p[i] = rnd.nextInt(8) == 0 ? null : (long) rnd.nextInt(3);
                    o[i] = rnd.nextInt(6) == 0 ? null : (long) rnd.nextInt(spread) - 2;
                    val[i] = rnd.nextInt(5) == 0 ? null : (long) rnd.nextInt(21) - 10;
                    d[i] = o[i] == null ? null : o[i] * 0.5;
                }
                boolean desc = rnd.nextBoolean();
                boolean nf = rnd.nextInt(3) == 0 ? !desc : desc;
                boolean doubleKey = rnd.nextInt(4) == 0;
                FrameUnit unit = rnd.nextBoolean() ? FrameUnit.ROWS : FrameUnit.RANGE;
                BoundKind sk;
                BoundKind ek;
                long sn = rnd.nextInt(4);
                long en = rnd.nextInt(4);
                WindowFrame frame;
                while (true) {
                    sk = STARTS[rnd.nextInt(4)];
                    ek = ENDS[rnd.nextInt(4)];
                    boolean so = sk == BoundKind.PRECEDING || sk == BoundKind.FOLLOWING;
                    boolean eo = ek == BoundKind.PRECEDING || ek == BoundKind.FOLLOWING;
                    try {
                        Expression so1 = so ? (doubleKey && unit == FrameUnit.RANGE ? new Const(sn * 0.5) : lit(sn)) : null;
                        Expression eo1 = eo ? (doubleKey && unit == FrameUnit.RANGE ? new Const(en * 0.5) : lit(en)) : null;
                        frame = new WindowFrame(unit, sk, so1, ek, eo1);
                        break;
                    } catch (SqlException e) {
                        // again
                    }
                }
                boolean tieBreak = unit == FrameUnit.ROWS;
                Expression key = doubleKey ? new DoubleCol(d) : new LongCol("o", SqlType.BIGINT, o);
                WindowSortKey[] keys = tieBreak ? keys(new WindowSortKey(key, desc, nf), asc(new LongCol("id", SqlType.BIGINT, id)))
                        : keys(new WindowSortKey(key, desc, nf));
                Expression value = new LongCol("v", SqlType.INT, val);
                Double[] dv = new Double[n];
                for (int i = 0; i < n; i++) {
                    dv[i] = val[i] == null ? null : val[i] * 0.1;
                }
                Expression dvalue = new DoubleCol(dv);
                List<WindowFunctionSpec> fns = new ArrayList<>(List.of(fn(SUM, frame, value), fn(COUNT, frame, value), fn(COUNT_STAR, frame),
                        fn(MIN, frame, value), fn(MAX, frame, value), fn(AVG, frame, value), fn(RANK), fn(DENSE_RANK),
                        fn(SUM, frame, dvalue), fn(AVG, frame, dvalue)));
                List<String> pg = new ArrayList<>(List.of("sum(v)", "count(v)", "count(*)", "min(v)", "max(v)", "avg(v)", "rank()", "dense_rank()", "sum(dv)", "avg(dv)"));
                if (tieBreak) {
                    fns.addAll(List.of(fn(FIRST_VALUE, frame, value), fn(LAST_VALUE, frame, value), fn(ROW_NUMBER), fn(NTILE, lit(3)),
                            fn(LAG, value, lit(2), lit(99)), fn(LEAD, value)));
                    pg.addAll(List.of("first_value(v)", "last_value(v)", "row_number()", "ntile(3)", "lag(v, 2, 99)", "lead(v)"));
                }
                Result r = run(n, parts(new LongCol("p", SqlType.BIGINT, p)), keys, fns.toArray(new WindowFunctionSpec[0]));
                StringBuilder ins = new StringBuilder("drop table if exists t; create table t(id int, p int, o int, d float8, v int, dv float8); insert into t values ");
                for (int i = 0; i < n; i++) {
                    ins.append(i == 0 ? "" : ",").append("(").append(i).append(",").append(v(p[i])).append(",").append(v(o[i])).append(",")
                            .append(v(d[i])).append(",").append(v(val[i])).append(",").append(v(dv[i])).append(")");
                }
                sql.append(ins).append(";\n");
                boolean dOff = doubleKey && unit == FrameUnit.RANGE;
                String so = dOff ? (sn * 0.5) + "::float8" : sn + "";
                String eo = dOff ? (en * 0.5) + "::float8" : en + "";
                String w = "partition by p order by " + (doubleKey ? "d" : "o") + (desc ? " desc" : "") + (nf ? " nulls first" : " nulls last")
                        + (tieBreak ? ", id" : "") + " " + unit.name().toLowerCase() + " between "
                        + sqlBound(sk, 0).replace("0 ", so + " ") + " and " + sqlBound(ek, 0).replace("0 ", eo + " ");
                StringBuilder q = new StringBuilder("select 'case " + t + "', id");
                for (String f : pg) {
                    q.append(", ").append(f).append(" over w");
                }
                sql.append(q).append(" from t window w as (").append(w).append(") order by id;\n");
                for (int i = 0; i < n; i++) {
                    StringBuilder line = new StringBuilder("case " + t + " " + i);
                    for (Object x : r.values[i]) {
                        line.append(" ").append(x == null ? "" : x);
                    }
                    mine.add(line.toString());
                }
            }
        }
        List<String> pg = psql(sql.toString());
        assertEquals(mine.size(), pg.size(), "result rows");
        for (int i = 0; i < mine.size(); i++) {
            String[] a = pg.get(i).split(" ", -1);
            String[] b = mine.get(i).split(" ", -1);
            assertEquals(a.length, b.length, pg.get(i) + " vs " + mine.get(i));
            for (int c = 0; c < a.length; c++) {
                if (!a[c].equals(b[c])) {
                    assertFalse(a[c].isEmpty() || b[c].isEmpty(), "PostgreSQL: " + pg.get(i) + " | operator: " + mine.get(i));
                    assertEquals(Double.parseDouble(a[c]), Double.parseDouble(b[c]), 1e-9, "PostgreSQL: " + pg.get(i) + " | operator: " + mine.get(i));
                }
            }
        }
    }

    private static List<String> psql(String script) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(System.getProperty("respsql.window.psql").trim().split("\\s+")));
        java.nio.file.Path file = java.nio.file.Files.createTempFile("window-crosscheck", ".sql");
        java.nio.file.Files.writeString(file, script);
        cmd.addAll(List.of("-q", "-A", "-t", "-F", " ", "-v", "ON_ERROR_STOP=1", "-c", "set client_min_messages = warning",
                "-f", file.toString()));
        Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.waitFor(), "psql exit status");
        java.nio.file.Files.delete(file);
        List<String> lines = new ArrayList<>();
        for (String l : out.split("\n")) {
            if (!l.isBlank()) {
                lines.add(l);
            }
        }
        return lines;
    }
}
