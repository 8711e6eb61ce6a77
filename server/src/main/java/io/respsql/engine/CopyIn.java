package io.respsql.engine;

import io.respsql.exec.write.InsertOperator;
import io.respsql.plan.WritePlanner;
import io.respsql.sql.SqlException;
import io.respsql.sql.SqlParser;
import io.respsql.sql.SqlState;
import io.respsql.sql.tree.Statement;
import io.respsql.storage.Catalog;
import io.respsql.storage.Column;
import io.respsql.storage.ColumnType;
import io.respsql.storage.Table;
import it.unimi.dsi.fastutil.ints.IntArrayList;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code COPY t [(cols)] FROM STDIN}: rows arrive a batch at a time (a protocol message's worth),
 * are converted, checked and written into the table at once ({@link #flush}: bounded work per
 * batch, as an INSERT of those rows), so the input is never held whole. The COPY is all or
 * nothing: {@link #abort} takes back every row it wrote (the slots it filled, still live), and the
 * append-only log and the replicas hear of its rows only at {@link #commit}, as one block of
 * {@code INSERT ... VALUES} statements in PostgreSQL's dialect (one per batch, the values as
 * literals that convert exactly as the COPY's fields did), so a load or a replica applies all of
 * them or none. Event loop only.
 *
 * <p>Not isolated: another client sees the rows of a COPY still running (RespSQL has no MVCC), and
 * a COPY that fails takes back the slots it filled even if another client changed them meanwhile.
 */
public final class CopyIn {
    /** Rows per written batch at most, whatever the size of the messages. */
    public static final int MAX_BATCH_ROWS = 65_536;

    private final SqlEngine engine;
    private final Catalog catalog;
    private final Statement.Insert shape;
    private final String tableName;
    private final InsertOperator.Bulk bulk = new InsertOperator.Bulk();
    private final String[] columnNames;
    private final ColumnType[] types;
    private final String insertHead;
    /** The slots written so far, to take back on abort. */
    private final IntArrayList written = new IntArrayList();
    /** The log's statements of the batches written, told to the listener at commit. */
    private final List<String> logged = new ArrayList<>();
    private final it.unimi.dsi.fastutil.longs.LongArrayList loggedRows = new it.unimi.dsi.fastutil.longs.LongArrayList();
    private final StringBuilder text = new StringBuilder();
    private Table table;
    private long rows;
    private boolean started;
    private boolean firstInRow;
    private boolean done;
    /** The COPY's statement time (µs): now() and CURRENT_* DEFAULTs of every batch read it, and the log pins it. */
    private final long micros = io.respsql.expr.StatementTime.wallMicros();

    /** The interactive transaction the COPY runs in (tx), or null: its rows go into that block's undo log and records. */
    private SqlEngine.Block txBlock;
    private long txMark;

    /** Runs this COPY inside transaction block {@code b}: kept or taken back with it. */
    void inBlock(SqlEngine.Block b) {
        this.txBlock = b;
        this.txMark = b.mark();
    }

    CopyIn(SqlEngine engine, Catalog catalog, String table, List<String> columns) {
        this.engine = engine;
        this.catalog = catalog;
        Table t = catalog.table(table);
        if (t == null) {
            throw new SqlException(SqlState.UNDEFINED_TABLE, "relation \"" + table + "\" does not exist");
        }
        if (t.partitioning != null) {
            // review2: the bulk write bypasses the routing step (rows stayed in a partitioned table's own storage,
            // a partition's went unchecked against its bound) while the logged INSERTs route on replay
            throw new SqlException(SqlState.FEATURE_NOT_SUPPORTED,
                    "COPY FROM into a partitioned table or a partition (\"" + t.name() + "\") is not supported yet");
        }
        List<String> names = new ArrayList<>();
        if (columns == null || columns.isEmpty()) {
            for (int i = 0; i < t.columnCount(); i++) {
                names.add(t.column(i).name());
            }
        } else {
            for (String c : columns) {
                if (t.column(c) == null) {
                    throw new SqlException(SqlState.UNDEFINED_COLUMN, "column \"" + c + "\" of relation \"" + t.name()
                            + "\" does not exist");
                }
                names.add(t.column(c).name());
            }
        }
        this.columnNames = names.toArray(new String[0]);
        this.types = new ColumnType[columnNames.length];
        StringBuilder head = new StringBuilder("INSERT INTO ").append(ident(t.name())).append(" (");
        for (int i = 0; i < columnNames.length; i++) {
            types[i] = t.column(columnNames[i]).type();
            head.append(i == 0 ? "" : ", ").append(ident(columnNames[i]));
        }
        head.append(") VALUES ");
        this.insertHead = head.toString();
        StringBuilder probe = new StringBuilder(insertHead).append('(');
        for (int i = 0; i < columnNames.length; i++) {
            probe.append(i == 0 ? "NULL" : ", NULL");
        }
        boolean prior = io.respsql.sql.Dialect.set(true);
        try {
            this.shape = (Statement.Insert) SqlParser.parse(probe.append(')').toString());
        } finally {
            io.respsql.sql.Dialect.set(prior);
        }
        this.tableName = t.name();
        this.table = t;
        WritePlanner.startBulk(catalog, shape, bulk); // checks the column list (duplicates, the primary key)
        bulk.release();
    }

    /** Fields per line. */
    public int width() {
        return columnNames.length;
    }

    public String columnName(int i) {
        return columnNames[i];
    }

    public String tableName() {
        return tableName;
    }

    /** Rows written so far. */
    public long rows() {
        return rows;
    }

    /** Starts the next row (every value NULL until set). */
    public void addRow() {
        if (!started) {
            if (catalog.table(tableName) != table) {
                throw new SqlException(SqlState.UNDEFINED_TABLE, "relation \"" + tableName
                        + "\" was dropped or changed while COPY was running");
            }
            WritePlanner.startBulk(catalog, shape, bulk);
            text.setLength(0);
            text.append(insertHead);
            started = true;
        } else {
            text.append(", ");
        }
        bulk.addRow();
        text.append('(');
        firstInRow = true;
    }

    /** Field {@code i} of the row: its bytes without escapes; a value the column's type refuses throws. */
    public void value(int i, byte[] b, int off, int len) {
        bulk.copyValue(i, b, off, len);
        if (!firstInRow) {
            text.append(", ");
        }
        firstInRow = false;
        ColumnType t = types[i];
        if ((t == ColumnType.INT || t == ColumnType.BIGINT) && plainInteger(b, off, len)) {
            for (int k = off; k < off + len; k++) {
                text.append((char) b[k]);
            }
            return;
        }
        text.append('\'');
        boolean ascii = true;
        for (int k = off; k < off + len; k++) {
            if (b[k] < 0) {
                ascii = false;
                break;
            }
        }
        if (ascii) {
            for (int k = off; k < off + len; k++) {
                char ch = (char) b[k];
                if (ch == '\'') {
                    text.append('\'');
                }
                text.append(ch);
            }
        } else {
            text.append(new String(b, off, len, StandardCharsets.UTF_8).replace("'", "''"));
        }
        text.append('\'');
    }

    /** Field {@code i} is NULL. */
    public void nullValue(int i) {
        if (!firstInRow) {
            text.append(", ");
        }
        firstInRow = false;
        text.append("NULL");
    }

    public void endRow() {
        text.append(')');
        if (bulk.pendingRows() >= MAX_BATCH_ROWS) {
            flush();
        }
    }

    /** Writes the rows read since the last batch (all of them or, on an error, none); returns the rows written so far. */
    public long flush() {
        if (!started) {
            return rows;
        }
        started = false;
        String refusal = engine.writeRefusal();
        if (refusal != null) {
            bulk.release();
            throw new SqlException(refusal.startsWith("READONLY") ? SqlState.READ_ONLY_SQL_TRANSACTION
                    : SqlState.OBJECT_NOT_IN_PREREQUISITE_STATE, refusal);
        }
        int n = bulk.pendingRows();
        long wrote;
        io.respsql.storage.SequenceScope prior = engine.enterSequences(); // a serial/identity column's nextval DEFAULT
        io.respsql.expr.StatementTime time = io.respsql.expr.StatementTime.current();
        time.begin(micros);
        try {
            wrote = bulk.write(catalog, engine.headroom(), txBlock == null ? null : txBlock.undo);
        } finally {
            engine.leaveSequences(prior);
        }
        int[] slots = bulk.writtenRows();
        written.addElements(written.size(), slots, 0, n);
        rows += wrote;
        // a DEFAULT that read the time (now(), CURRENT_DATE): logged with it, so a replay or replica writes the same
        logged.add(time.used() ? io.respsql.expr.StatementTime.logged(text, micros) : text.toString());
        loggedRows.add(wrote);
        text.setLength(0);
        return rows;
    }

    /** Writes the last batch and keeps the COPY: its statements go to the log and replicas as one block. */
    public long commit() {
        flush();
        done = true;
        engine.copyEnded(this); // mend
        if (txBlock != null) {
            engine.copyCommittedInBlock(txBlock, logged, loggedRows, tableName, rows);
        } else {
            engine.copyCommitted(logged, loggedRows, tableName, rows);
        }
        logged.clear();
        written.clear();
        written.trim();
        return rows;
    }

    /** Takes back every row this COPY wrote; nothing of it is logged. */
    public void abort() {
        if (done) {
            return;
        }
        done = true;
        engine.copyEnded(this); // mend: no longer uncommitted rows a snapshot must not hold
        started = false;
        bulk.release();
        logged.clear();
        loggedRows.clear();
        if (txBlock != null) {
            engine.copyAbortedInBlock(txBlock, txMark); // its rows are in the block's undo log: taken back from there
            written.clear();
            return;
        }
        engine.copyAborted();
        Table t = catalog.table(tableName) == table ? table : null;
        if (t != null) {
            int[] slots = written.elements();
            for (int i = written.size() - 1; i >= 0; i--) {
                if (t.rows().isLive(slots[i])) {
                    t.deleteRow(slots[i]);
                }
            }
        }
        written.clear();
        written.trim();
    }

    private static boolean plainInteger(byte[] b, int off, int len) {
        if (len == 0 || len > 19) {
            return false;
        }
        int i = off;
        if (b[i] == '-') {
            i++;
            if (len == 1) {
                return false;
            }
        }
        for (; i < off + len; i++) {
            if (b[i] < '0' || b[i] > '9') {
                return false;
            }
        }
        return true;
    }

    /** A name as the parser reads it back, whatever it holds: quoted as a name ({@code `x`}, never a keyword). */
    static String ident(String name) {
        return '`' + name.replace("`", "``") + '`';
    }
}
