package io.respsql.plan;

import io.respsql.exec.ResultWriter;
import io.respsql.exec.op.Operator;
import io.respsql.exec.op.scan.IndexRange;
import io.respsql.expr.EvalContext;
import io.respsql.expr.Expression;
import io.respsql.result.ResultColumns;
import io.respsql.result.ResultSink;

import java.util.List;

/** A planned query as statement executors use it: run for a result, or its root and outputs (INSERT ... SELECT). */
public final class PlannedQuery implements StatementPlanner.QueryPlan {
    private final QueryPlanner.Planned p;
    private final ResultColumns columns;
    /** Reused by every event-loop run of this plan: its tuple buffer and the outputs array. */
    private final ResultWriter writer = new ResultWriter();
    private final Expression[] outputArray;
    private List<io.respsql.storage.Table> tablesRead = List.of();
    /** Plans the same query again with its descriptions (EXPLAIN); planning to run builds no text. */
    private final java.util.function.Supplier<List<String>> explained;

    /** Relations the statement numbered: the context's slots. */
    private final int relations;

    /** Planned in PostgreSQL's dialect: a run on a worker writes its values as that dialect does (a BC date). */
    private final boolean postgres = io.respsql.sql.Dialect.postgres();

    PlannedQuery(QueryPlanner.Planned p, int relations, java.util.function.Supplier<List<String>> explained) {
        this.p = p;
        this.relations = relations;
        this.explained = explained;
        this.outputArray = p.outputs().toArray(new Expression[0]);
        this.columns = new ResultColumns() { // read on demand: the 2010 reply never asks
            @Override
            public int size() {
                return p.outputs().size();
            }

            @Override
            public String name(int i) {
                return p.names().get(i);
            }

            @Override
            public String type(int i) {
                io.respsql.expr.Expression e = p.outputs().get(i);
                return io.respsql.expr.Bpchar.paddedLength(e) >= 0 ? "BPCHAR" : SqlTypes.resultName(e.type()); // charn
            }
        };
    }

    @Override
    public Operator root() {
        return p.root();
    }

    @Override
    public List<Expression> outputs() {
        return p.outputs();
    }

    @Override
    public List<String> outputNames() {
        return p.names();
    }

    void tablesRead(List<io.respsql.storage.Table> tables) {
        this.tablesRead = tables;
    }

    /** The base tables the query reads, as the binder resolved them (views expanded). */
    public List<io.respsql.storage.Table> tablesRead() {
        return tablesRead;
    }

    private java.util.Map<String, io.respsql.storage.Table> systemRelations = java.util.Map.of();

    void systemRelations(java.util.Map<String, io.respsql.storage.Table> built) {
        this.systemRelations = built;
    }

    /**
     * The system relations (pg_class, information_schema.tables, ...) the query reads, as built
     * when it was planned: from every table of the catalog, not only {@link #tablesRead()}. A read
     * view for the query carries them ({@link io.respsql.storage.ReadView#systemRelations}).
     */
    public java.util.Map<String, io.respsql.storage.Table> systemRelations() {
        return systemRelations;
    }

    private boolean readsCatalogOids;

    void readsCatalogOids(boolean reads) {
        this.readsCatalogOids = reads;
    }

    /**
     * Whether the query numbers relations as pg_class does ({@code 'name'::regclass}, {@code
     * oid::regclass}, pg_get_indexdef): from the whole live catalog, so it runs on the event loop
     * only (a worker's read view holds the plan's tables alone and would number them otherwise).
     */
    public boolean readsCatalogOids() {
        return readsCatalogOids;
    }

    /** Subqueries' plans (in expressions, so not reached from the root); set once, at planning. */
    private List<Operator> subqueryPlans = List.of();
    /** The event loop's runs' context ({@link #run}), kept with the operators' run state in it. */
    private EvalContext loopContext;
    /** Where range bounds are evaluated for the estimate, kept between statements. */
    private EvalContext estimateContext;
    /** Every operator of the plan and of its subqueries, flattened once (the plan's structure is fixed). */
    private Operator[] operators;

    /** Whether the plan has subqueries (in its expressions): issue 27's parallel operators run only without. */
    public boolean hasSubqueries() {
        return !subqueryPlans.isEmpty();
    }

    void subqueryPlans(List<Operator> plans) {
        this.subqueryPlans = List.copyOf(plans);
    }

    /**
     * Estimated rows the plan visits: the sum of {@link Operator#rowsTouched()} over its operators
     * and its subqueries' (a full scan or whole-index walk of a base table counts its rows now; a
     * probe or bounded range counts nothing; a correlated subquery counts once; a nested loop join
     * counts its inputs' rows multiplied, the pairs it visits). Hash joins and
     * aggregates run over those rows, so the sum orders statements well enough for a yes/no
     * decision (bg-query-min-rows). The access paths are fixed at plan time; the row counts are
     * read on each call, so a cached plan's figure follows its tables' growth.
     */
    public long estimatedRowsTouched() {
        return estimatedRowsTouched(null);
    }

    /**
     * {@link #estimatedRowsTouched()} with the run's parameter values (a cached plan; null: none):
     * a range whose bounds are constants or parameters counts the index entries it is estimated to
     * cover ({@link IndexRange#estimatedRows}), so a wide range goes to the background as a scan
     * does and a narrow one stays inline. A lone COUNT(*) of a whole table reads its row count
     * (O(1)), whatever the table's size: nothing to offload.
     */
    public long estimatedRowsTouched(io.respsql.expr.ParamValues params) {
        // (event loop only, as the plan cache: the context is kept for the next estimate)
        if (p.countStarOnly() && p.countTable() != null) {
            return 0;
        }
        Operator[] ops = operators;
        if (ops == null) {
            List<Operator> all = new java.util.ArrayList<>();
            java.util.ArrayDeque<Operator> todo = new java.util.ArrayDeque<>(subqueryPlans);
            todo.push(p.root());
            while (!todo.isEmpty()) {
                Operator op = todo.pop();
                all.add(op);
                op.inputs(todo::push);
            }
            ops = operators = all.toArray(new Operator[0]);
        }
        long rows = 0;
        EvalContext ctx = null;
        for (Operator op : ops) {
            rows = Math.min(Operator.MANY_ROWS, rows + op.rowsTouched());
            if (op instanceof IndexRange range && range.estimable(params != null)) {
                if (ctx == null) {
                    ctx = estimateContext != null ? estimateContext : (estimateContext = newContext());
                    ctx.params = params;
                }
                try {
                    rows = Math.min(Operator.MANY_ROWS, rows + range.estimatedRows(ctx));
                } catch (RuntimeException e) {
                    // defensive: a bound that fails to evaluate is the run's to report (with its own error); nothing counted
                }
            }
        }
        return rows;
    }

    public ResultColumns columns() {
        return columns;
    }

    @Override
    public EvalContext newContext() {
        return new EvalContext(relations);
    }

    @Override
    public List<String> explain() {
        return explained == null ? p.explain() : explained.get();
    }

    /** Runs the query into {@code sink}: the rows, or for a lone COUNT(*) the count. */
    public void run(ResultSink sink) {
        run(sink, null, null);
    }

    /** {@link #run(ResultSink)} with the statement's parameter values (a cached or prepared plan). */
    public void run(ResultSink sink, io.respsql.expr.ParamValues params) {
        run(sink, params, null);
    }

    /** {@link #run(ResultSink)} on a worker thread: scans stop with an error once {@code cancel} is set. */
    public void run(ResultSink sink, io.respsql.expr.Cancellation cancel) {
        run(sink, null, cancel);
    }

    /** The run: {@code params} and {@code cancel} may be null (no parameters; not cancellable). */
    public void run(ResultSink sink, io.respsql.expr.ParamValues params, io.respsql.expr.Cancellation cancel) {
        // A run on a worker thread (cancellable) gets its own writer: the kept one is the event loop's.
        boolean prior = io.respsql.sql.Dialect.set(postgres);
        try {
            run(sink, params, cancel, cancel == null ? writer : new ResultWriter());
        } finally {
            io.respsql.sql.Dialect.set(prior);
        }
    }

    /** The run on the event loop, stopped once {@code cancel} (its deadline, may be null) says so. */
    public void runOnLoop(ResultSink sink, io.respsql.expr.ParamValues params, io.respsql.expr.Cancellation cancel) {
        run(sink, params, cancel, writer);
    }

    private void run(ResultSink sink, io.respsql.expr.ParamValues params, io.respsql.expr.Cancellation cancel,
                     ResultWriter w) {
        EvalContext ctx;
        if (w == writer) {
            // the event loop's runs never overlap: one context, and the operators' run state kept
            // in it (cursors, selection vectors), serves every run of this (cached) plan
            ctx = loopContext;
            if (ctx == null) {
                ctx = loopContext = newContext();
            } else {
                ctx.reset();
            }
        } else {
            ctx = newContext(); // a worker's run: state of its own
        }
        ctx.params = params;
        ctx.cancel = cancel;
        if (w != writer) {
            io.respsql.expr.StatementTime.current().begin(0); // a worker's statement: its own time
        }
        ctx.statementMicros = 0; // read from StatementTime when first needed
        if (p.countStarOnly() && (p.countTable() != null || p.countInput() != null)) {
            long n = p.countTable() != null ? p.countTable().rowCount() : ResultWriter.count(p.countInput(), ctx);
            sink.countStar(columns, n);
            return;
        }
        w.write(p.root(), outputArray, columns, p.carried(), ctx, sink);
    }
}
