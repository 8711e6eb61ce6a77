package io.respsql.exec.op.join;

import io.respsql.exec.op.Keys;
import io.respsql.exec.op.Operator;
import io.respsql.exec.op.join.baseline.OldHashJoin;
import io.respsql.expr.EvalContext;
import io.respsql.expr.Expression;
import io.respsql.plan.PlannedQuery;
import io.respsql.plan.StatementPlanner;
import io.respsql.sql.SqlParser;
import io.respsql.sql.tree.Statement;
import io.respsql.storage.Catalog;
import io.respsql.storage.ColumnSpec;
import io.respsql.storage.ColumnType;
import io.respsql.storage.IntColumn;
import io.respsql.storage.Table;
import io.respsql.storage.TextColumn;

import java.lang.reflect.Field;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * An A/B of the hash join operator in one JVM, less exposed to a shared machine's load than
 * separate runs: seed-004-shaped tables (50,000 customers, 300,000 orders, no indexes, so the
 * planner hashes), each query planned once, its (lowest) HashJoin taken out of the plan and run
 * alone into a counting consumer, alternately as the current {@link HashJoin} and as the copy of
 * the old one ({@link OldHashJoin}, built from the same inputs and keys). A third column times
 * the join's two inputs run into the counter alone (the scans, no join), so the join's own
 * cost per build and per probe tuple is (join - inputs) / tuples. Prints medians over the rounds
 * (each round: old and new, in alternating order, then the inputs; a System.gc() before each).
 *
 * <pre>java -Xms2g -Xmx2g -cp jmh/target/respsql-jmh.jar io.respsql.exec.op.join.HashJoinAB [rounds]</pre>
 */
public final class HashJoinAB {
    private static final int CUSTOMERS = 50_000;
    private static final int ORDERS = 300_000;
    private static long sink;

    private HashJoinAB() {
    }

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 15;
        Catalog cat = new Catalog();
        Table c = table(cat, "customers", "customer_id int", "tier text");
        Table o = table(cat, "orders", "order_id int", "customer_id int", "status text");
        String[] tiers = {"bronze", "silver", "gold", "platinum"};
        for (int i = 1; i <= CUSTOMERS; i++) {
            int r = c.allocateRow();
            ((IntColumn) c.column(0)).set(r, i);
            ((TextColumn) c.column(1)).set(r, tiers[i % 4].getBytes(StandardCharsets.UTF_8));
            c.indexRow(r);
        }
        SplittableRandom rnd = new SplittableRandom(4);
        for (int i = 1; i <= ORDERS; i++) {
            int r = o.allocateRow();
            ((IntColumn) o.column(0)).set(r, i);
            // a few orders of customers that do not exist, so the LEFT JOIN has unmatched rows both ways
            ((IntColumn) o.column(1)).set(r, 1 + rnd.nextInt(CUSTOMERS + CUSTOMERS / 10));
            ((TextColumn) o.column(2)).set(r, tiers[rnd.nextInt(4)].getBytes(StandardCharsets.UTF_8));
            o.indexRow(r);
        }
        String[][] queries = {
            {"B small build (50k c) probe 300k o",
                "SELECT COUNT(*) FROM orders o JOIN customers c ON o.customer_id = c.customer_id"},
            {"L big build (300k o) probe 50k c",
                "SELECT COUNT(*) FROM customers c LEFT JOIN orders o ON o.customer_id = c.customer_id WHERE o.order_id IS NULL"},
            {"R residual (c.tier <> o.status)",
                "SELECT COUNT(*) FROM orders o JOIN customers c ON o.customer_id = c.customer_id AND c.tier <> o.status"},
            {"T two keys (int, text)",
                "SELECT COUNT(*) FROM orders o JOIN customers c ON o.customer_id = c.customer_id AND o.status = c.tier"},
        };
        List<HashJoin> kept = new ArrayList<>();
        List<OldHashJoin> keptOld = new ArrayList<>();
        for (String[] q : queries) {
            Statement st = SqlParser.parse(q[1]);
            PlannedQuery plan = StatementPlanner.plan(cat, ((Statement.QueryStatement) st).query(), q[1]);
            HashJoin hj = lowestHashJoin(plan.root());
            if (hj == null) {
                System.out.println(q[0] + ": no hash join in " + plan.explain());
                continue;
            }
            Operator build = (Operator) get(hj, "build");
            Operator probe = (Operator) get(hj, "probe");
            Keys bk = (Keys) get(hj, "buildKeys");
            Keys pk = (Keys) get(hj, "probeKeys");
            kept.add(hj);
            OldHashJoin old = new OldHashJoin(build, (int[]) get(hj, "buildRelations"), exprs(bk), probe, exprs(pk),
                    (Boolean) get(hj, "leftOuter"), (Expression) get(hj, "residual"));
            keptOld.add(old);
            long[] bp = new long[2];
            EvalContext ctx = plan.newContext();
            build.run(ctx, x -> { bp[0]++; return true; });
            probe.run(ctx, x -> { bp[1]++; return true; });
            long outOld = count(old, plan);
            long outNew = count(hj, plan);
            System.out.printf("%s: %s%n  build %d tuples, probe %d, out old %d new %d%s%n", q[0], q[1], bp[0], bp[1], outOld, outNew,
                    outOld == outNew ? "" : "  MISMATCH");
            double[] tOld = new double[rounds];
            double[] tNew = new double[rounds];
            double[] tIn = new double[rounds];
            for (int w = 0; w < 5; w++) { // warm-up
                time(old, plan);
                time(hj, plan);
                timeInputs(build, probe, plan);
            }
            for (int r = 0; r < rounds; r++) { // the order alternates: old first in even rounds, new first in odd
                if (r % 2 == 0) {
                    tOld[r] = time(old, plan);
                    tNew[r] = time(hj, plan);
                } else {
                    tNew[r] = time(hj, plan);
                    tOld[r] = time(old, plan);
                }
                tIn[r] = timeInputs(build, probe, plan);
            }
            double mo = median(tOld);
            double mn = median(tNew);
            double mi = median(tIn);
            double[] ratio = new double[rounds];
            for (int r = 0; r < rounds; r++) {
                ratio[r] = tOld[r] / tNew[r];
            }
            System.out.printf("  median ms: old %.2f new %.2f inputs alone %.2f | old/new %.2f (median of pairs %.2f)"
                    + " | join's own ns per (build+probe) tuple: old %.1f new %.1f%n",
                    mo, mn, mi, mo / mn, median(ratio), (mo - mi) * 1e6 / (bp[0] + bp[1]), (mn - mi) * 1e6 / (bp[0] + bp[1]));
            System.out.println("  old ms " + fmt(tOld));
            System.out.println("  new ms " + fmt(tNew));
            System.out.println("  inputs " + fmt(tIn));
        }
        indexVersusHash(cat, o, kept, keptOld, rounds);
        if (sink == 42) {
            System.out.println();
        }
    }

    /**
     * The shapes the planner's join costs were fitted to (bench/joins/cost-fit.md), whole plans
     * here, scans included: A, index probes of orders_customer_id per customer (50,000 probes,
     * 300,000 rows reached); B and L the hash joins above (current code). Alternated per round.
     */
    private static void indexVersusHash(Catalog cat, Table o, List<HashJoin> kept, List<OldHashJoin> keptOld, int rounds) {
        o.createIndex("orders_customer_id", o.column("customer_id"));
        cat.registerIndex("orders_customer_id", o);
        String a = "SELECT COUNT(*) FROM customers c JOIN orders o ON o.customer_id = c.customer_id WHERE c.tier <> 'x'";
        PlannedQuery pa = StatementPlanner.plan(cat, ((Statement.QueryStatement) SqlParser.parse(a)).query(), a);
        Operator ia = pa.root();
        System.out.println("A " + a + "\n  plan " + pa.explain() + "\n  out " + count(ia, pa));
        double[] ta = new double[rounds];
        double[] tb = new double[rounds];
        double[] tl = new double[rounds];
        double[] tbo = new double[rounds];
        double[] tlo = new double[rounds];
        for (int r = -5; r < rounds; r++) {
            double x = time(ia, pa);
            double y = time(kept.get(0), pa);
            double z = time(kept.get(1), pa);
            double yo = time(keptOld.get(0), pa);
            double zo = time(keptOld.get(1), pa);
            if (r >= 0) {
                ta[r] = x;
                tb[r] = y;
                tl[r] = z;
                tbo[r] = yo;
                tlo[r] = zo;
            }
        }
        double a0 = median(ta);
        System.out.printf("  median ms: A index %.2f | B hash (50k build, 300k probe) new %.2f old %.2f | L hash (300k build, 50k probe)"
                + " new %.2f old %.2f | B/A new %.2f old %.2f | L/A new %.2f old %.2f%n", a0, median(tb), median(tbo), median(tl),
                median(tlo), median(tb) / a0, median(tbo) / a0, median(tl) / a0, median(tlo) / a0);
        System.out.println("  A ms " + fmt(ta));
        System.out.println("  B new ms " + fmt(tb));
        System.out.println("  B old ms " + fmt(tbo));
        System.out.println("  L new ms " + fmt(tl));
        System.out.println("  L old ms " + fmt(tlo));
    }

    private static Table table(Catalog cat, String name, String... columns) {
        List<ColumnSpec> specs = new ArrayList<>();
        for (String col : columns) {
            String[] p = col.split(" ");
            specs.add(new ColumnSpec(p[0], ColumnType.parse(p[1]), false, null));
        }
        Table t = new Table(name, specs, 0);
        cat.add(t);
        return t;
    }

    private static HashJoin lowestHashJoin(Operator root) {
        HashJoin found = null;
        ArrayDeque<Operator> todo = new ArrayDeque<>();
        todo.push(root);
        while (!todo.isEmpty()) {
            Operator op = todo.pop();
            if (op instanceof HashJoin h) {
                found = h;
            }
            op.inputs(todo::push);
        }
        return found;
    }

    private static Object get(Object o, String field) throws Exception {
        Field f = o.getClass().getDeclaredField(field);
        f.setAccessible(true);
        return f.get(o);
    }

    private static Expression[] exprs(Keys k) {
        Expression[] e = new Expression[k.size()];
        for (int j = 0; j < e.length; j++) {
            e[j] = k.expression(j);
        }
        return e;
    }

    private static long count(Operator op, PlannedQuery plan) {
        long[] n = {0};
        op.run(plan.newContext(), x -> { n[0]++; return true; });
        return n[0];
    }

    private static double time(Operator op, PlannedQuery plan) {
        System.gc(); // the last run's tables are not collected on this run's clock
        long t0 = System.nanoTime();
        sink += count(op, plan);
        return (System.nanoTime() - t0) / 1e6;
    }

    private static double timeInputs(Operator build, Operator probe, PlannedQuery plan) {
        System.gc();
        long t0 = System.nanoTime();
        sink += count(build, plan) + count(probe, plan);
        return (System.nanoTime() - t0) / 1e6;
    }

    private static double median(double[] a) {
        double[] s = a.clone();
        Arrays.sort(s);
        return s[s.length / 2];
    }

    private static String fmt(double[] a) {
        StringBuilder sb = new StringBuilder();
        for (double v : a) {
            sb.append(String.format(" %.2f", v));
        }
        return sb.toString();
    }
}
