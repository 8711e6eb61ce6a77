package io.respsql.exec.op.join;

import io.respsql.exec.op.Operator;
import io.respsql.exec.op.TupleConsumer;
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
import io.respsql.KernelBenchmark;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;

import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * The hash join operator, build and probe: seed-004-shaped tables (50,000 customers, 300,000
 * orders whose customer_id is uniform over 1..55,000, no indexes, so the planner hashes), the
 * query planned once by the real planner, and its lowest {@link HashJoin} run alone into a
 * counting consumer. {@link #inputsAlone} runs the join's two inputs (the scans) without the join,
 * so the join's own cost is the difference. The old operator's A/B (HashJoinAB with a copy of the
 * old class) is done; its results and the commit that held it are in bench/joins/hashjoin-ab/.
 *
 * <pre>
 * java -jar jmh/target/respsql-jmh.jar HashJoinBenchmark -prof gc
 * </pre>
 */
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
public class HashJoinBenchmark extends KernelBenchmark {
    private static final int CUSTOMERS = 50_000;
    private static final int ORDERS = 300_000;

    /**
     * B: 50,000 customers built (an int key), 300,000 orders probed; L: LEFT JOIN with the 300,000
     * orders built (~5.5 rows per key), 50,000 probed; R: B with a residual; T: two keys (int, text),
     * the generic key path.
     */
    @Param({"B", "L", "R", "T"})
    public String shape;

    private PlannedQuery plan;
    private HashJoin join;
    private final List<Operator> inputs = new ArrayList<>(2);
    private final Counter counter = new Counter();

    /** Counts tuples; one instance, so the consumer call site stays monomorphic. */
    static final class Counter implements TupleConsumer {
        long n;

        @Override
        public boolean accept(io.respsql.expr.EvalContext ctx) {
            n++;
            return true;
        }
    }

    @Setup
    public void setUp() {
        Catalog cat = new Catalog();
        Table c = table(cat, "customers", "customer_id int", "tier text");
        Table o = table(cat, "orders", "order_id int", "customer_id int", "status text");
        byte[][] tiers = new byte[4][];
        String[] names = {"bronze", "silver", "gold", "platinum"};
        for (int i = 0; i < 4; i++) {
            tiers[i] = names[i].getBytes(StandardCharsets.UTF_8);
        }
        for (int i = 1; i <= CUSTOMERS; i++) {
            int r = c.allocateRow();
            ((IntColumn) c.column(0)).set(r, i);
            ((TextColumn) c.column(1)).set(r, tiers[i % 4]);
            c.indexRow(r);
        }
        SplittableRandom rnd = new SplittableRandom(4);
        for (int i = 1; i <= ORDERS; i++) {
            int r = o.allocateRow();
            ((IntColumn) o.column(0)).set(r, i);
            // some orders of customers that do not exist, so the LEFT JOIN has unmatched rows both ways
            ((IntColumn) o.column(1)).set(r, 1 + rnd.nextInt(CUSTOMERS + CUSTOMERS / 10));
            ((TextColumn) o.column(2)).set(r, tiers[rnd.nextInt(4)]);
            o.indexRow(r);
        }
        String sql = switch (shape) {
            case "B" -> "SELECT COUNT(*) FROM orders o JOIN customers c ON o.customer_id = c.customer_id";
            case "L" -> "SELECT COUNT(*) FROM customers c LEFT JOIN orders o ON o.customer_id = c.customer_id"
                    + " WHERE o.order_id IS NULL";
            case "R" -> "SELECT COUNT(*) FROM orders o JOIN customers c ON o.customer_id = c.customer_id AND c.tier <> o.status";
            case "T" -> "SELECT COUNT(*) FROM orders o JOIN customers c ON o.customer_id = c.customer_id AND o.status = c.tier";
            default -> throw new IllegalArgumentException(shape);
        };
        plan = StatementPlanner.plan(cat, ((Statement.QueryStatement) SqlParser.parse(sql)).query(), sql);
        join = lowestHashJoin(plan.root());
        if (join == null) {
            throw new IllegalStateException("no hash join in " + plan.explain());
        }
        join.inputs(inputs::add);
        if (hashJoin() == 0) {
            throw new IllegalStateException("the join of " + shape + " produced nothing");
        }
    }

    /** The join: builds the table from one input and probes it with the other. Time per query. */
    @Benchmark
    public long hashJoin() {
        counter.n = 0;
        join.run(plan.newContext(), counter);
        return counter.n;
    }

    /** The join's two inputs run into the counter, no join: subtract from {@link #hashJoin}. */
    @Benchmark
    public long inputsAlone() {
        counter.n = 0;
        for (Operator in : inputs) {
            in.run(plan.newContext(), counter);
        }
        return counter.n;
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
}
