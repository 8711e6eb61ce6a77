package io.respsql.pgwire;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.DecoderException;
import io.netty.util.ReferenceCountUtil;
import io.respsql.result.Outcome;
import io.respsql.engine.SqlEngine;
import io.respsql.expr.Cancellation;
import io.respsql.expr.ParamValues;
import io.respsql.plan.PlannedQuery;
import io.respsql.plan.StatementPlanner;
import io.respsql.result.ResultColumns;
import io.respsql.sql.SqlException;
import io.respsql.sql.SqlState;
import io.respsql.sql.tree.Statement;
import io.respsql.storage.ReadView;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One PostgreSQL session: startup and authentication, then simple and extended queries, on the
 * event loop. Messages are handled one at a time from a queue; a statement the engine hands to
 * a worker ({@link #offer}) leaves its message at the head of the queue and stops the reading
 * until the worker's result is back, when the message is handled again and takes that result
 * ({@link #pending}) instead of running the statement again. So replies keep their order and
 * the event loop never waits.
 */
final class PgConnection extends ChannelInboundHandlerAdapter implements SqlEngine.Offload {
    private static final Logger log = LoggerFactory.getLogger(PgConnection.class);
    private static final int SSL_REQUEST = 80877103;
    private static final int GSSENC_REQUEST = 80877104;
    private static final int CANCEL_REQUEST = 80877102;
    private static final String CANCELED = "canceling statement due to user request";

    private enum State { STARTUP, SASL_FIRST, SASL_FINAL, PASSWORD, READY, CLOSED }

    /**
     * What one statement gave: a tag, or an error; for a row result its columns and the messages
     * not yet sent ({@link #rows}: DataRows, after their RowDescription for a simple query; null
     * when they were written straight into the connection's output).
     */
    static final class Result {
        ResultColumns columns;
        ByteBuf rows;
        boolean ownsRows;
        long rowCount;
        String tag;
        String sqlState;
        String message;
        int position;
        boolean done;

        static Result error(String sqlState, String message) {
            Result r = new Result();
            r.sqlState = sqlState;
            r.message = message;
            return r;
        }

        boolean failed() {
            return sqlState != null;
        }

        void release() {
            if (ownsRows && rows != null) {
                rows.release();
            }
            rows = null;
        }
    }

    /** A Parse'd statement: its text and parameter types, and what is kept of it between Executes. */
    private static final class Prepared {
        final String sql;
        final int[] types;
        /** No statement at all (EmptyQueryResponse). */
        final boolean empty;
        /** Its plan with parameter slots ({@link io.respsql.engine.BoundPlan}), made at its first Describe/Execute. */
        io.respsql.engine.BoundPlan plan;
        /** The schema version at which it was found to have none (-1: not tried). */
        long noPlanAt = -1;

        Prepared(String sql, int[] types) {
            this.sql = sql;
            this.types = types;
            this.empty = PgSql.split(sql).isEmpty();
        }
    }

    private static final class Portal {
        final String sql;
        final short[] formats;
        /** The statement it was bound from, and its Bind's values as SQL literals (null for a statement without parameters). */
        final Prepared statement;
        final String[] literals;
        Result result;

        Portal(String sql, short[] formats, Prepared statement, String[] literals) {
            this.sql = sql;
            this.formats = formats;
            this.statement = statement;
            this.literals = literals;
        }
    }

    /** Kept plans by statement text, for a text Parse'd again (the unnamed statement); bounded. */
    private final Map<String, io.respsql.engine.BoundPlan> planByText = bounded();
    /** Texts found to have no kept plan, with the schema version then. */
    private final Map<String, Long> noPlanByText = bounded();

    private static <V> Map<String, V> bounded() {
        return new java.util.LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, V> eldest) {
                return size() > 128;
            }
        };
    }

    /** This connection's messages made append-only records since its last flush. */
    private boolean wroteRecords;

    /** The values of the bound plan now running (one statement runs at a time on a connection). */
    private final ParamValues boundValues = new ParamValues(8);

    private final PgServer server;
    private final ArrayDeque<ByteBuf> frames = new ArrayDeque<>();
    private final PgSettings settings = new PgSettings();
    /** This connection's currval/lastval (seq helper). */
    private final io.respsql.storage.SequenceSession sequences = new io.respsql.storage.SequenceSession();
    private final PgRows rows = new PgRows();
    private final List<String> lines = new ArrayList<>();
    private final Map<String, Prepared> statements = new HashMap<>();
    private final Map<String, Portal> portals = new HashMap<>();
    private ChannelHandlerContext ctx;
    private ByteBuf out;
    private State state = State.STARTUP;
    private int pid;
    private int secret;
    private String user = "respsql";
    /** The ACL user logged in as (null: the default user). */
    private io.respsql.acl.AclUser aclUser;
    /** The named ACL user whose password the login checks (null: the default user's, requirepass). */
    private io.respsql.acl.AclUser loggingIn;
    private Scram scram;
    private boolean skipToSync;
    /** This connection's transaction (tx): BEGIN ... COMMIT, its status 'I', 'T' or 'E'. */
    private final io.respsql.engine.Transactions.Tx tx = new io.respsql.engine.Transactions.Tx();
    /** A statement waits for another connection's transaction to end: the message is handled again then. */
    private boolean parked;
    /** Moves on with each ReadyForQuery: an idle-in-transaction timer of an older one does nothing. */
    private long idleGeneration;
    /** The worker's statement now running, if any. */
    private Job job;
    /** Its result, for the message handled again. */
    private Result pending;
    /** Where the statement now being run writes its rows, in which formats, and whether its RowDescription first. */
    private ByteBuf runTarget;
    private short[] runFormats;
    private boolean runDescribe;
    /** A simple Query's statements and how many are done (kept while one runs on a worker). */
    private List<String> queryParts;
    private int queryIndex;
    /** Whether the Query's parts are all-or-nothing, and whether the engine's block now wraps them. */
    private boolean queryAtomic;
    private boolean queryBlock;
    /** A COPY ... FROM STDIN taking CopyData now (a simple Query's part), or null. */
    private PgCopy.In copyIn;

    PgConnection(PgServer server) {
        this.server = server;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
        this.out = ctx.alloc().buffer(512);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!(msg instanceof ByteBuf f) || state == State.CLOSED) {
            ReferenceCountUtil.release(msg);
            return;
        }
        frames.add(f);
        drain();
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        flush();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        state = State.CLOSED;
        if (pid != 0) {
            server.unregister(pid, this);
        }
        if (job != null) {
            job.cancel.cancel("query cancelled: connection closed");
        }
        parked = false;
        transactions().closed(tx); // a connection that closes mid-transaction rolls back
        abortCopy();
        for (ByteBuf f : frames) {
            f.release();
        }
        frames.clear();
        for (Portal p : portals.values()) {
            if (p.result != null) {
                p.result.release();
            }
        }
        portals.clear();
        if (out != null) {
            out.release();
            out = null;
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (cause instanceof javax.net.ssl.SSLException || cause.getCause() instanceof javax.net.ssl.SSLException) {
            // pgtls: a failed TLS handshake (no or an untrusted client certificate) or a broken TLS stream:
            // the client's side; nothing can be answered over it
            log.debug("closing PostgreSQL connection: {}", cause.getCause() != null ? cause.getCause() : cause);
            ctx.close();
            return;
        }
        if (cause instanceof DecoderException && state != State.CLOSED && ctx.channel().isActive()) {
            fatal("08P01", "invalid frontend message: " + cause.getCause().getMessage());
            return;
        }
        if (!(cause instanceof IOException)) {
            log.warn("closing PostgreSQL connection after an unexpected error", cause);
        }
        ctx.close();
    }

    /** Handles the queued messages until one waits for a worker. */
    private void drain() {
        while (job == null && !parked && !frames.isEmpty() && state != State.CLOSED) {
            ByteBuf f = frames.peekFirst();
            int start = f.readerIndex();
            boolean done;
            long records = server.host.appended();
            long ends = tx.endedBlocks();
            try {
                done = handle(f);
            } catch (IndexOutOfBoundsException e) {
                // a message shorter than its own fields say: the stream cannot be trusted further
                fatal("08P01", "invalid message format");
                done = true;
            } catch (RuntimeException e) {
                log.warn("PostgreSQL message failed", e);
                error(SqlState.INTERNAL_ERROR, "internal error: " + e, 0);
                if (queryParts != null) {
                    queryParts = null; // a simple Query ends with its error
                    ready();
                } else {
                    skipToSync = true;
                }
                done = true;
            }
            if (server.host.appended() != records || tx.endedBlocks() != ends) {
                // this connection's replies now wait for those records; review1: or a block ended here (its
                // COMMIT's reply waits for the fsync of what it read, even when a BEGIN followed in this batch)
                wroteRecords = true;
            }
            if (!done) {
                f.readerIndex(start); // handled again when the worker is done
                break;
            }
            frames.pollFirst();
            f.release();
        }
        if (state != State.CLOSED) {
            ctx.channel().config().setAutoRead(job == null && !parked);
        }
    }

    /** Sends what was answered; replies to writes wait for their append-only records (group commit). */
    private void flush() {
        if (out != null && out.isReadable() && state != State.CLOSED) {
            ctx.write(out, ctx.voidPromise());
            out = ctx.alloc().buffer(512);
            // prepared: inside a transaction block a reply depends on no record being written (its
            // own writes are logged at COMMIT, whose reply waits): it leaves at once, unless this
            // connection logged something since its last flush or has replies held (order)
            boolean inBlock = tx.inBlock() && !wroteRecords;
            wroteRecords = false;
            if (server.host.holdsReplies() && !(inBlock && !server.host.waitingFor(ctx))) {
                server.host.flushAfterCommit(ctx);
            } else {
                ctx.flush();
            }
        }
    }

    /** One message; false: it waits for a worker and is to be handled again. */
    private boolean handle(ByteBuf f) {
        if (state == State.STARTUP) {
            try {
                startup(f);
            } catch (SqlException e) {
                fatal(e.sqlState(), e.getMessage());
            }
            return true;
        }
        char type = (char) f.readByte();
        f.skipBytes(4);
        if (state != State.READY) {
            if (type != 'p') {
                fatal("08P01", "expected a password message, got '" + type + "'");
                return true;
            }
            try {
                authenticate(f);
            } catch (SqlException e) {
                fatal(e.sqlState(), e.getMessage());
            }
            return true;
        }
        if (copyIn != null && type != 'd' && type != 'c' && type != 'f' && type != 'H' && type != 'S') {
            if (type == 'X') {
                abortCopy();
            } else {
                copyFailed("08P01", "unexpected message type 0x" + Integer.toHexString(type) + " during COPY from stdin", null);
                return true;
            }
        }
        if (skipToSync && type != 'S' && type != 'X') {
            return true; // after an error of the extended protocol: everything up to Sync is skipped
        }
        try {
            switch (type) {
                case 'Q' -> {
                    return query(f);
                }
                case 'P' -> parse(f);
                case 'B' -> bind(f);
                case 'D' -> {
                    return describe(f);
                }
                case 'E' -> {
                    return execute(f);
                }
                case 'C' -> close(f);
                case 'S' -> {
                    if (copyIn == null) {
                        sync();
                    }
                }
                case 'H' -> flush();
                case 'X' -> {
                    state = State.CLOSED;
                    flush();
                    ctx.close();
                }
                case 'd' -> copyData(f);
                case 'c' -> copyDone();
                case 'f' -> {
                    if (copyIn != null) {
                        copyFailed(SqlState.QUERY_CANCELED, "COPY from stdin failed: " + cstring(f), null);
                    }
                }
                default -> fatal("08P01", "invalid frontend message type " + (int) type);
            }
        } catch (SqlException e) {
            error(e.sqlState(), e.getMessage(), 0);
            if (type == 'Q') {
                queryParts = null;
                ready(); // a simple Query ends with its error
            } else {
                skipToSync = true;
            }
        }
        return true;
    }

    // ---- startup and authentication ------------------------------------------------------------

    private void startup(ByteBuf f) {
        f.skipBytes(4);
        int code = f.readInt();
        if (code == SSL_REQUEST || code == GSSENC_REQUEST) {
            out.writeByte('N'); // no TLS, no GSS encryption: the client goes on in the clear or gives up
            flush();
            return;
        }
        if (code == CANCEL_REQUEST) {
            int cancelPid = f.readInt();
            int key = f.readInt();
            server.cancel(cancelPid, key);
            state = State.CLOSED;
            ctx.close();
            return;
        }
        if ((code >>> 16) != 3) {
            fatal("0A000", "unsupported frontend protocol " + (code >>> 16) + "." + (code & 0xffff)
                    + ": server supports 3.0 to 3.0");
            return;
        }
        if (server.host.denies(ctx.channel().remoteAddress())) {
            // as RESP: no password and a non-loopback bind let only loopback clients in
            fatal("28000", "RespSQL is running in protected mode: no password is set (requirepass), so connections"
                    + " are only accepted from the loopback interface; set requirepass or protected-mode no");
            return;
        }
        if (server.host.startingUp()) {
            // as PostgreSQL while it recovers: the client may retry once the data set is loaded
            fatal("57P03", "the database system is starting up");
            return;
        }
        if (server.sessions() >= server.config.maxClients()) {
            fatal("53300", "sorry, too many clients already (maxclients " + server.config.maxClients() + ")");
            return;
        }
        Map<String, String> params = new HashMap<>();
        while (f.isReadable()) {
            String name = cstring(f);
            if (name.isEmpty()) {
                break;
            }
            params.put(name, cstring(f));
        }
        user = params.getOrDefault("user", "respsql");
        try {
            for (Map.Entry<String, String> e : params.entrySet()) {
                String k = e.getKey();
                if (!k.equals("user") && !k.equals("database") && !k.equals("options") && !k.equals("replication")) {
                    settings.set(k, e.getValue());
                }
            }
        } catch (SqlException e) {
            fatal(e.sqlState(), e.getMessage());
            return;
        }
        loggingIn = namedUser();
        if (loggingIn != null) {
            if (!loggingIn.enabled()) {
                fatal("28000", "role \"" + user + "\" is not permitted to log in");
                return;
            }
            if (loggingIn.nopass()) {
                aclUser = loggingIn;
                authenticated();
                return;
            }
            if (!server.config.pgAuth().equals("password") && loggingIn.scramVerifier() == null) {
                fatal("28P01", "password authentication failed for user \"" + user + "\": it has no SCRAM-SHA-256 "
                        + "verifier (its password was given as a #hash): set it with ACL SETUSER " + user
                        + " >password or ALTER USER " + user + " PASSWORD '...'");
                return;
            }
        }
        if (loggingIn == null && !server.config.passwordRequired()) {
            authenticated(); // trust, as RESP lets a client in without AUTH while no password is set
        } else if (server.config.pgAuth().equals("password")) {
            PgMessages.authentication(out, 3, null); // cleartext, as configured
            state = State.PASSWORD;
            flush();
        } else {
            byte[] mech = (Scram.MECHANISM + "\0\0").getBytes(StandardCharsets.US_ASCII);
            PgMessages.authentication(out, 10, mech);
            state = State.SASL_FIRST;
            flush();
        }
    }

    private void authenticate(ByteBuf f) {
        switch (state) {
            case PASSWORD -> {
                String given = cstring(f);
                if (loggingIn != null ? loggingIn.checkPassword(given.getBytes(StandardCharsets.UTF_8))
                        : MessageDigest.isEqual(given.getBytes(StandardCharsets.UTF_8),
                        server.config.requirePass().getBytes(StandardCharsets.UTF_8))) {
                    aclUser = loggingIn;
                    authenticated();
                } else {
                    authFailed();
                }
            }
            case SASL_FIRST -> {
                String mechanism = cstring(f);
                if (!mechanism.equals(Scram.MECHANISM)) {
                    fatal("28000", "SASL authentication mechanism " + mechanism + " is not supported");
                    return;
                }
                int len = f.readInt();
                String first = len < 0 ? "" : f.readCharSequence(len, StandardCharsets.UTF_8).toString();
                scram = new Scram(loggingIn != null
                        ? Scram.Verifier.of(io.respsql.acl.ScramVerifier.parse(loggingIn.scramVerifier()))
                        : server.verifier());
                String reply = scram.clientFirst(first);
                if (reply == null) {
                    fatal("08P01", "malformed SCRAM message");
                    return;
                }
                PgMessages.authentication(out, 11, reply.getBytes(StandardCharsets.UTF_8));
                state = State.SASL_FINAL;
                flush();
            }
            case SASL_FINAL -> {
                String fin = f.readCharSequence(f.readableBytes(), StandardCharsets.UTF_8).toString();
                String reply = scram.clientFinal(fin);
                scram = null;
                if (reply == null) {
                    authFailed();
                    return;
                }
                PgMessages.authentication(out, 12, reply.getBytes(StandardCharsets.UTF_8));
                aclUser = loggingIn;
                authenticated();
            }
            default -> fatal("08P01", "unexpected password message");
        }
    }

    /**
     * The ACL user the startup packet names, when it is one other than {@code default}; null: the
     * login is the default user's (requirepass, or trust without one), as before users existed.
     */
    private io.respsql.acl.AclUser namedUser() {
        if (server.acl == null || user.equals(io.respsql.acl.Acl.DEFAULT)) {
            return null;
        }
        return server.acl.user(user);
    }

    /** The ACL check of this connection's statements (null: unrestricted). */
    private io.respsql.engine.StatementAccess access() {
        if (server.acl == null) {
            return null;
        }
        io.respsql.acl.AclUser u = aclUser != null ? aclUser : server.acl.defaultUser();
        return u.unrestricted() ? null : server.acl.access(u, true, server.engine.engine()::indexOwner,
                () -> "pgwire addr=" + ctx.channel().remoteAddress() + " user=" + u.name());
    }

    private void authFailed() {
        fatal("28P01", "password authentication failed for user \"" + user + "\"");
    }

    private void authenticated() {
        PgMessages.authentication(out, 0, null);
        for (Map.Entry<String, String> e : settings.reported().entrySet()) {
            PgMessages.parameterStatus(out, e.getKey(), e.getValue());
        }
        int[] key = server.register(this);
        pid = key[0];
        secret = key[1];
        PgMessages.backendKeyData(out, pid, secret);
        state = State.READY;
        PgMessages.readyForQuery(out, tx.status());
        flush();
    }

    /** CancelRequest with our process id: cancels the statement running on a worker, if the key matches. */
    void cancelRequest(int key) {
        if (key == secret && job != null) {
            job.cancel.cancel(CANCELED);
        }
    }

    // ---- simple query --------------------------------------------------------------------------

    private boolean query(ByteBuf f) {
        if (queryParts == null) {
            String q = cstring(f);
            queryParts = PgSql.split(q);
            queryIndex = 0;
            if (queryParts.isEmpty()) {
                queryParts = null;
                PgMessages.empty(out, 'I');
                ready();
                return true;
            }
            // PostgreSQL runs a Query message of several statements as one implicit transaction:
            // all of them or none. The engine's block (MULTI/EXEC's undo) gives that from the
            // first part that may write on; reads before it still go to workers (inside a block
            // none does: the parts from there on run here, in one go, under loop-statement-max-ms).
            queryAtomic = queryParts.size() > 1 && !tx.inBlock() && !controlsTransaction(queryParts);
        }
        try {
            return queryParts();
        } finally {
            if (queryBlock) {
                // an exception out of a part: keep the all-or-nothing promise
                endQueryBlock(false);
            }
        }
    }

    /** Ends the implicit block of a Query: kept (before its replies go out, for the group commit) or taken back. */
    private void endQueryBlock(boolean keep) {
        queryBlock = false;
        if (keep) {
            server.engine.engine().commitBlock();
        } else {
            server.engine.engine().rollbackBlock();
        }
    }

    /** Whether the statement surely only reads (a query, SHOW, EXPLAIN, DESC) or sets a session setting. */
    private static boolean reads(String sql) {
        return switch (PgSql.words(sql, 1)[0]) {
            case "SELECT", "SHOW", "EXPLAIN", "DESC", "DESCRIBE", "SET", "RESET" -> true;
            default -> false;
        };
    }

    /** Whether a part of the Query is BEGIN/COMMIT/ROLLBACK/...: then no implicit block around them. */
    private static boolean controlsTransaction(List<String> parts) {
        for (String part : parts) {
            switch (PgSql.words(part, 1)[0]) {
                case "BEGIN", "START", "COMMIT", "END", "ROLLBACK", "ABORT", "COPY" -> {
                    return true;
                }
                default -> {
                }
            }
        }
        return false;
    }

    private boolean queryParts() {
        while (queryIndex < queryParts.size()) {
            if (queryAtomic && !queryBlock && pending == null && !reads(queryParts.get(queryIndex))
                    && !server.engine.engine().inBlock()) {
                server.engine.engine().beginBlock();
                queryBlock = true;
            }
            String part = queryParts.get(queryIndex);
            Result r;
            if (PgCopy.isCopy(part)) {
                r = copy(part);
                if (r == null) {
                    return false; // COPY ... TO on a worker: handled again when it is done
                }
                if (copyIn != null) {
                    queryIndex++;
                    flush();
                    return true; // CopyData follows; CopyDone goes on with the Query's other parts
                }
            } else {
                // rows go straight into the output, after their RowDescription
                r = run(part, null, out, true);
            }
            if (r == null) {
                return false; // on a worker: this message is handled again when it is done
            }
            queryIndex++;
            if (r.failed()) {
                tx.fail(); // an error inside a transaction block fails it (a COPY's too)
                if (queryBlock) {
                    endQueryBlock(false);
                }
                error(r.sqlState, r.message, r.position);
                r.release();
                break;
            }
            if (r.rows != null) {
                out.writeBytes(r.rows);
            }
            PgMessages.commandComplete(out, r.tag);
            r.release();
            if (out.readableBytes() >= 64 * 1024) {
                flush();
            }
        }
        if (queryBlock) {
            endQueryBlock(true);
        }
        queryAtomic = false;
        queryParts = null;
        ready();
        return true;
    }

    private void ready() {
        PgMessages.readyForQuery(out, tx.status());
        flush();
        idleTimer();
    }

    // ---- tx: interactive transactions ----------------------------------------------------------

    private io.respsql.engine.Transactions transactions() {
        return server.engine.engine().transactions();
    }

    /** The statement waits for another connection's transaction: handled again when it ends. */
    private void park() {
        parked = true;
        transactions().park(() -> ctx.executor().execute(this::unpark));
    }

    private void unpark() {
        if (!parked || state == State.CLOSED) {
            return;
        }
        parked = false;
        drain();
        flush();
    }

    /** idle_in_transaction_session_timeout: a transaction left idle that long is rolled back and its connection closed. */
    private void idleTimer() {
        long gen = ++idleGeneration;
        long ms = tx.idleTimeoutMs();
        if (ms <= 0 || !tx.inBlock() || state == State.CLOSED) {
            return;
        }
        ctx.executor().schedule(() -> {
            if (gen == idleGeneration && tx.inBlock() && state != State.CLOSED && frames.isEmpty()) {
                fatal(SqlState.IDLE_IN_TRANSACTION_SESSION_TIMEOUT,
                        "terminating connection due to idle-in-transaction timeout");
            }
        }, ms, java.util.concurrent.TimeUnit.MILLISECONDS);
    }

    // ---- COPY ----------------------------------------------------------------------------------

    /**
     * A COPY part of a simple Query: FROM STDIN starts taking CopyData ({@link #copyIn} set, null
     * tag); TO STDOUT runs its query (on a worker when long: null, handled again) and sends the
     * rows as CopyData at once.
     */
    private Result copy(String sql) {
        if (pending == null) {
            if (tx.failed()) {
                return Result.error("25P02", "current transaction is aborted, commands ignored until end of transaction block");
            }
            if (!transactions().mayRun(tx)) {
                park();
                return null;
            }
        }
        PgCopy.Spec spec;
        try {
            spec = PgCopy.parse(sql);
        } catch (SqlException e) {
            if (pending != null) {
                pending.release();
                pending = null;
            }
            return Result.error(e.sqlState(), e.getMessage());
        }
        if (spec.from) {
            if (server.overMemoryLimit()) {
                return Result.error(SqlState.OUT_OF_MEMORY, SqlEngine.OOM_REPLY);
            }
            io.respsql.engine.StatementAccess access = access();
            String denied = access == null ? null : access.checkVerb("copy", spec.table, true);
            if (denied != null) {
                return Result.error(SqlState.INSUFFICIENT_PRIVILEGE, denied.replaceFirst("^ERR ", ""));
            }
            io.respsql.engine.CopyIn in;
            boolean prior = io.respsql.sql.Dialect.set(true);
            try {
                in = server.engine.engine().copyIn(spec.table, spec.columns,
                        tx.inBlock() ? transactions().holdForCopy(tx) : null);
            } catch (SqlException e) {
                return Result.error(e.sqlState(), e.getMessage());
            } finally {
                io.respsql.sql.Dialect.set(prior);
            }
            copyIn = new PgCopy.In(spec, in);
            PgMessages.copyResponse(out, 'G', in.width());
            Result r = new Result();
            r.tag = null;
            return r;
        }
        ByteBuf buf = Unpooled.buffer(256);
        Result r = run(spec.select(), null, buf, false);
        if (r == null) {
            return null;
        }
        if (r.failed()) {
            return r;
        }
        try {
            if (r.columns == null) {
                return Result.error(SqlState.FEATURE_NOT_SUPPORTED, "COPY (query) TO needs a query that returns rows");
            }
            PgMessages.copyResponse(out, 'H', r.columns.size());
            long n = PgCopy.toCopyData(spec, r.columns, r.rows == null ? Unpooled.EMPTY_BUFFER : r.rows, out);
            PgMessages.empty(out, 'c');
            Result done = new Result();
            done.tag = "COPY " + n;
            return done;
        } finally {
            r.release();
        }
    }

    /** One CopyData: its complete lines are written; a bad one fails the whole COPY. */
    private void copyData(ByteBuf f) {
        if (copyIn == null) {
            return; // after a failed COPY, or outside one: ignored, as PostgreSQL does
        }
        try {
            copyIn.data(f);
        } catch (PgCopy.LineError e) {
            copyFailed(e.sqlState, e.getMessage(), e.where);
        } catch (SqlException e) {
            copyFailed(e.sqlState(), e.getMessage(), null);
        } catch (RuntimeException | OutOfMemoryError e) {
            log.warn("COPY failed", e);
            copyFailed(SqlState.INTERNAL_ERROR, "internal error: " + e, null);
        }
    }

    private void copyDone() {
        if (copyIn == null) {
            return;
        }
        long n;
        try {
            n = copyIn.done();
        } catch (PgCopy.LineError e) {
            copyFailed(e.sqlState, e.getMessage(), e.where);
            return;
        } catch (SqlException e) {
            copyFailed(e.sqlState(), e.getMessage(), null);
            return;
        } catch (RuntimeException | OutOfMemoryError e) {
            log.warn("COPY failed", e);
            copyFailed(SqlState.INTERNAL_ERROR, "internal error: " + e, null);
            return;
        }
        copyIn = null;
        PgMessages.commandComplete(out, "COPY " + n);
        if (queryParts != null) {
            queryParts(); // the Query's parts after the COPY, then ReadyForQuery
        } else {
            ready();
        }
    }

    /** The COPY fails: every row it wrote is taken back, the error sent, the Query ends. */
    private void copyFailed(String sqlState, String message, String where) {
        abortCopy();
        tx.fail();
        if (out != null) {
            PgMessages.error(out, 'E', "ERROR", sqlState, message, 0, where);
        }
        queryParts = null;
        queryAtomic = false;
        ready();
    }

    private void abortCopy() {
        if (copyIn != null) {
            copyIn.copy.abort();
            copyIn = null;
        }
    }

    // ---- extended query ------------------------------------------------------------------------

    private void parse(ByteBuf f) {
        String name = cstring(f);
        String sql = cstring(f);
        int n = f.readUnsignedShort();
        int[] declared = new int[n];
        for (int i = 0; i < n; i++) {
            declared[i] = f.readInt();
        }
        if (PgSql.split(sql).size() > 1) {
            throw new SqlException(SqlState.SYNTAX_ERROR, "cannot insert multiple commands into a prepared statement");
        }
        int count = Math.max(PgSql.parameterCount(sql), n);
        int[] types = new int[count];
        for (int i = 0; i < count; i++) {
            // 0: unspecified; its value becomes a string literal, which the engine converts to the
            // type its place asks for (ParameterDescription says text)
            types[i] = i < n ? declared[i] : 0;
        }
        if (!name.isEmpty() && statements.containsKey(name)) {
            throw new SqlException("42P05", "prepared statement \"" + name + "\" already exists");
        }
        statements.put(name, new Prepared(sql, types));
        PgMessages.empty(out, '1');
    }

    private void bind(ByteBuf f) {
        String portalName = cstring(f);
        String statementName = cstring(f);
        int nf = f.readUnsignedShort();
        short[] paramFormats = new short[nf];
        for (int i = 0; i < nf; i++) {
            paramFormats[i] = f.readShort();
        }
        Prepared ps = statements.get(statementName);
        if (ps == null) {
            throw new SqlException(SqlState.INVALID_SQL_STATEMENT_NAME,
                    "prepared statement \"" + statementName + "\" does not exist");
        }
        int np = f.readUnsignedShort();
        if (np != ps.types.length) {
            throw new SqlException("08P01", "bind message supplies " + np + " parameters, but prepared statement \""
                    + statementName + "\" requires " + ps.types.length);
        }
        String[] literals = new String[np];
        for (int i = 0; i < np; i++) {
            int len = f.readInt();
            int format = PgMessages.format(paramFormats, i);
            ByteBuf value = len < 0 ? f : f.readSlice(len);
            literals[i] = PgParams.literal(value, len, ps.types[i], format, i + 1);
        }
        int nr = f.readUnsignedShort();
        short[] formats = new short[nr];
        for (int i = 0; i < nr; i++) {
            formats[i] = f.readShort();
        }
        String sql = np == 0 ? ps.sql : PgSql.substitute(ps.sql, literals);
        Portal old = portals.put(portalName, new Portal(sql, formats, ps, literals));
        if (old != null && old.result != null) {
            old.result.release();
        }
        PgMessages.empty(out, '2');
    }

    private boolean describe(ByteBuf f) {
        char kind = (char) f.readByte();
        String name = cstring(f);
        if (kind == 'S') {
            Prepared ps = statements.get(name);
            if (ps == null) {
                throw new SqlException(SqlState.INVALID_SQL_STATEMENT_NAME, "prepared statement \"" + name + "\" does not exist");
            }
            int[] described = ps.types.clone();
            for (int i = 0; i < described.length; i++) {
                if (described[i] == 0) {
                    described[i] = PgMessages.TEXT;
                }
            }
            PgMessages.parameterDescription(out, described);
            ResultColumns columns = null;
            if (PgSql.returnsRows(ps.sql)) {
                columns = describeStatement(ps);
            }
            if (columns == null) {
                PgMessages.empty(out, 'n');
            } else {
                PgMessages.rowDescription(out, columns, null);
            }
            return true;
        }
        Portal p = portal(name);
        if (!PgSql.returnsRows(p.sql)) {
            PgMessages.empty(out, 'n');
            return true;
        }
        if (p.result == null) {
            // from its plan (its parameters are in place): Execute then streams the rows
            io.respsql.engine.BoundPlan bound = boundPlan(p.statement);
            // review1: a restricted user's Describe goes through describeColumns, which checks its rights (as Execute does)
            ResultColumns planned = bound != null && bound.columns() != null && access() == null ? bound.columns()
                    : describeColumns(p.sql);
            if (planned != null) {
                PgMessages.rowDescription(out, planned, p.formats);
                return true;
            }
            // not described by a plan (SHOW TABLES, DESC, EXPLAIN): run now, rows kept for Execute
            Result r = run(p.sql, p.formats, Unpooled.buffer(256), false, p);
            if (r == null) {
                return false;
            }
            p.result = r;
        }
        if (p.result.failed()) {
            Result r = p.result;
            p.result = null;
            throw new SqlException(r.sqlState, r.message);
        }
        if (p.result.columns == null) {
            PgMessages.empty(out, 'n');
        } else {
            PgMessages.rowDescription(out, p.result.columns, p.formats);
        }
        return true;
    }

    /**
     * The columns of a prepared statement, planned with its parameters as NULL (which any place
     * takes), or, where NULL is refused (LIMIT $1), as 0; the first error when neither plans.
     */
    private ResultColumns describeStatement(Prepared ps) {
        if (ps.types.length == 0) {
            return describeColumns(ps.sql);
        }
        String[] values = new String[ps.types.length];
        java.util.Arrays.fill(values, "NULL");
        try {
            return describeColumns(PgSql.substitute(ps.sql, values));
        } catch (SqlException first) {
            java.util.Arrays.fill(values, "0");
            try {
                return describeColumns(PgSql.substitute(ps.sql, values));
            } catch (SqlException second) {
                throw first;
            }
        }
    }

    /** The columns of a statement's rows, from its plan; the SHOW of a setting has one text column. */
    private ResultColumns describeColumns(String sql) {
        PgSettings.Command c = PgSettings.parse(sql);
        if (c != null) {
            return c.kind().equals("SHOW") ? ResultColumns.of(List.of(c.name()), List.of("TEXT")) : null;
        }
        try {
            return server.engine.describe(sql, settings.postgresDialect(), access()); // acl: as Execute checks
        } catch (SqlException e) {
            throw e;
        } catch (RuntimeException e) {
            return null; // not a query the planner can describe alone: its rows are described when run
        }
    }

    private boolean execute(ByteBuf f) {
        Portal p = portal(cstring(f));
        int max = f.readInt();
        if (p.statement != null ? p.statement.empty : PgSql.split(p.sql).isEmpty()) {
            PgMessages.empty(out, 'I'); // EmptyQueryResponse
            return true;
        }
        if (p.result == null) {
            boolean whole = max <= 0;
            // without a row limit the rows stream into the output; with one they are kept for the next Execute
            Result r = run(p.sql, p.formats, whole ? out : Unpooled.buffer(256), false, p);
            if (r == null) {
                return false;
            }
            if (whole && !r.failed()) {
                if (r.rows != null) {
                    out.writeBytes(r.rows);
                }
                r.release();
                PgMessages.commandComplete(out, r.tag);
                p.result = r; // run: executing it again gives no rows
                return true;
            }
            p.result = r;
        }
        Result r = p.result;
        if (r.failed()) {
            p.result = null;
            error(r.sqlState, r.message, r.position);
            skipToSync = true;
            return true;
        }
        if (r.columns == null || r.rows == null) {
            PgMessages.commandComplete(out, r.rows == null && r.columns != null ? "SELECT 0" : r.tag);
            return true;
        }
        long sent = 0;
        ByteBuf b = r.rows;
        while (b.isReadable() && (max <= 0 || sent < max)) {
            int len = b.getInt(b.readerIndex() + 1);
            out.writeBytes(b, 1 + len);
            sent++;
            if (out.readableBytes() >= 64 * 1024) {
                flush();
            }
        }
        if (b.isReadable()) {
            PgMessages.empty(out, 's');
        } else {
            PgMessages.commandComplete(out, r.tag.startsWith("SELECT ") ? "SELECT " + sent : r.tag);
        }
        return true;
    }

    private Portal portal(String name) {
        Portal p = portals.get(name);
        if (p == null) {
            throw new SqlException("34000", "portal \"" + name + "\" does not exist");
        }
        return p;
    }

    private void close(ByteBuf f) {
        char kind = (char) f.readByte();
        String name = cstring(f);
        if (kind == 'S') {
            statements.remove(name);
        } else {
            Portal p = portals.remove(name);
            if (p != null && p.result != null) {
                p.result.release();
            }
        }
        PgMessages.empty(out, '3');
    }

    private void sync() {
        skipToSync = false;
        if (!tx.inBlock()) {
            // the implicit transaction ends: its portals go (named statements stay)
            for (Portal p : portals.values()) {
                if (p.result != null) {
                    p.result.release();
                }
            }
            portals.clear();
        }
        ready();
    }

    // ---- running one statement -------------------------------------------------------------------

    /**
     * Runs one statement, its rows (in {@code formats}, after their RowDescription when
     * {@code describeFirst}) going to {@code target}: the output itself, or a buffer of the
     * caller's that the result then owns. Null when it went to a worker: the message is handled
     * again and this returns the worker's result.
     */
    private Result run(String sql, short[] formats, ByteBuf target, boolean describeFirst) {
        return run(sql, formats, target, describeFirst, null);
    }

    /** {@link #run(String, short[], ByteBuf, boolean)} of an extended-protocol portal (its statement's kept plan, if any). */
    private Result run(String sql, short[] formats, ByteBuf target, boolean describeFirst, Portal portal) {
        if (pending != null) {
            Result r = pending;
            pending = null;
            if (r.failed()) {
                tx.fail(); // txfix: a moved statement that failed (cancelled, timed out) fails its transaction block
            }
            if (target != out) {
                target.release();
            }
            return r;
        }
        Result r;
        try {
            r = runNow(sql, formats, target, describeFirst, portal);
        } catch (SqlException e) {
            rows.discard();
            r = Result.error(e.sqlState(), e.getMessage());
        }
        if (r == null) {
            return null;
        }
        if (r.failed()) {
            tx.fail();
            if (target != out) {
                target.release();
            }
        } else if (target != out) {
            r.rows = target;
            r.ownsRows = true;
        }
        return r;
    }

    private Result runNow(String sql, short[] formats, ByteBuf target, boolean describeFirst, Portal portal) {
        rows.on(target, formats, describeFirst);
        // prepared: a statement with a kept plan and values it takes runs that plan (no parse, no plan)
        io.respsql.engine.BoundPlan bound = portal == null ? null : boundPlan(portal.statement);
        if (bound != null && !fillBound(bound, portal.literals)) {
            bound = null;
        }
        if (bound == null) {
            if (PgCopy.isCopy(sql)) {
                return Result.error(SqlState.FEATURE_NOT_SUPPORTED, "COPY runs through the simple query protocol only");
            }
            Result local = sessionStatement(sql);
            if (local != null) {
                return local;
            }
        }
        io.respsql.engine.Transactions txs = transactions();
        // enter() reads the statement (a query? a write?): in this session's dialect, where :: and WITH parse
        boolean entered;
        boolean priorDialect = io.respsql.sql.Dialect.set(settings.postgresDialect());
        try {
            entered = bound != null ? txs.enter(tx, sql, bound.columns() != null) : txs.enter(tx, sql);
        } finally {
            io.respsql.sql.Dialect.set(priorDialect);
        }
        if (!entered) {
            if (target != out) {
                target.release();
            }
            park();
            return null;
        }
        if (server.overMemoryLimit() && PgSql.growsMemory(sql)) {
            txs.leave(tx, false);
            return Result.error(SqlState.OUT_OF_MEMORY, SqlEngine.OOM_REPLY);
        }
        lines.clear();
        runTarget = target;
        runFormats = formats;
        runDescribe = describeFirst;
        server.engine.engine().sequenceSession(sequences); // this connection's currval/lastval
        server.engine.engine().access(access()); // acl: this connection's user (null: unrestricted)
        Outcome o = null;
        try {
            if (bound != null) {
                o = server.engine.executeBound(bound, boundValues, sql, rows, this, settings.statementTimeoutMs());
            }
            if (o == null) {
                o = server.engine.execute(sql, settings.postgresDialect(), rows, this,
                        settings.statementTimeoutMs(), lines);
            }
        } finally {
            SqlException refused = txs.leave(tx, o != null && (o.ok() || job != null));
            if (refused != null && o != null && o.ok()) {
                rows.discard();
                throw refused;
            }
        }
        runTarget = null;
        if (job != null) {
            return null;
        }
        if (!o.ok()) {
            rows.discard();
            Result r = Result.error(o.sqlState() == null ? SqlState.INTERNAL_ERROR : o.sqlState(), EngineCall.message(o));
            r.position = PgSql.errorPosition(r.message);
            return r;
        }
        Result r = new Result();
        if (rows.columns() != null) {
            r.columns = rows.columns();
            r.rowCount = rows.rows();
        } else if (!lines.isEmpty()) {
            // a reply of lines (SHOW TABLES, DESC, EXPLAIN): rows of one text column
            String first = PgSql.words(sql, 1)[0];
            r.columns = ResultColumns.of(List.of(first.equals("EXPLAIN") ? "QUERY PLAN" : first.toLowerCase()),
                    List.of("TEXT"));
            rows.columns(r.columns, lines.size());
            for (String line : lines) {
                text(line);
            }
            r.rowCount = lines.size();
            r.tag = first.equals("SHOW") || first.equals("EXPLAIN") ? first : "SELECT " + lines.size();
            return r;
        }
        r.tag = PgSql.tag(sql, r.rowCount, o.changes());
        return r;
    }

    // ---- prepared: a Parse'd statement's plan kept between Executes ----

    /**
     * The kept plan of {@code ps} for the catalog as it is now (made again after DDL), or null
     * when it has none: no parameters to bind, not the PostgreSQL dialect, or a shape
     * {@link io.respsql.engine.BoundPlan} does not take (then it runs as text, as before).
     */
    private io.respsql.engine.BoundPlan boundPlan(Prepared ps) {
        if (ps == null || ps.types.length == 0 || ps.empty || !settings.postgresDialect()) {
            return null;
        }
        io.respsql.storage.Catalog catalog = server.engine.engine().catalog();
        if (ps.plan != null && ps.plan.current(catalog)) {
            return ps.plan;
        }
        long version = catalog.schemaVersion();
        if (ps.noPlanAt == version) {
            return null;
        }
        // the same text Parse'd again (pgbench -M extended: the unnamed statement each time) takes the plan made for it
        io.respsql.engine.BoundPlan known = planByText.get(ps.sql);
        if (known != null && known.current(catalog) && known.parameterCount() == ps.types.length) {
            ps.plan = known;
            return known;
        }
        Long none = noPlanByText.get(ps.sql);
        if (none != null && none == version) {
            ps.noPlanAt = version;
            return null;
        }
        ps.plan = null;
        List<int[]> spans = new ArrayList<>();
        String template = PgSql.template(ps.sql, spans);
        io.respsql.engine.BoundPlan plan = null;
        if (template != null) {
            boolean prior = io.respsql.sql.Dialect.set(true);
            try {
                plan = server.engine.engine().planBound(template, spans, ps.types.length);
            } finally {
                io.respsql.sql.Dialect.set(prior);
            }
        }
        if (plan == null) {
            ps.noPlanAt = version;
            noPlanByText.put(ps.sql, version);
        } else {
            planByText.put(ps.sql, plan);
        }
        ps.plan = plan;
        return plan;
    }

    /**
     * Puts a Bind's values (SQL literals, {@link PgParams}) into {@link #boundValues} as the plan's
     * parameters take them; false when one is not plainly a value of its kind (NULL, a number
     * for a text column, text that is no number for a numeric one, an int out of range): the
     * text path then runs the statement and gives its answer or its error.
     */
    private boolean fillBound(io.respsql.engine.BoundPlan plan, String[] literals) {
        int n = plan.parameterCount();
        if (literals == null || literals.length != n) {
            return false;
        }
        ParamValues pv = boundValues;
        pv.reset(n);
        for (int i = 0; i < n; i++) {
            String lit = literals[i];
            boolean quoted = lit.length() >= 2 && lit.charAt(0) == '\'';
            String v = quoted ? unquote(lit) : lit;
            switch (plan.kind(i)) {
                case INTEGER -> {
                    long x;
                    if (!PgParams.isInteger(v)) {
                        return false;
                    }
                    try {
                        x = Long.parseLong(v);
                    } catch (NumberFormatException e) {
                        return false;
                    }
                    if (plan.int4(i) && (x < Integer.MIN_VALUE || x > Integer.MAX_VALUE)) {
                        return false;
                    }
                    pv.setLong(i, x);
                }
                case DECIMAL -> {
                    if (!PgParams.isDecimal(v)) {
                        return false;
                    }
                    double d = Double.parseDouble(v);
                    if (Double.isInfinite(d)) {
                        return false;
                    }
                    pv.setDouble(i, d);
                }
                case STRING -> {
                    if (!quoted) {
                        return false;
                    }
                    pv.setText(i, v.getBytes(StandardCharsets.UTF_8));
                }
                default -> {
                    return false;
                }
            }
        }
        return true;
    }

    private static String unquote(String lit) {
        String inner = lit.substring(1, lit.length() - 1);
        return inner.indexOf('\'') < 0 ? inner : inner.replace("''", "'");
    }

    /** One row of one text value. */
    private void text(String value) {
        rows.beginRow();
        byte[] b = value.getBytes(StandardCharsets.UTF_8);
        rows.textValue(b, 0, b.length);
        rows.endRow();
    }

    /** SET/RESET/SHOW of a setting and the transaction statements, answered here; null: the engine's. */
    private Result sessionStatement(String sql) {
        if (io.respsql.engine.Transactions.mayBeControl(sql)) {
            io.respsql.engine.Transactions.Reply t = transactions().control(tx, sql);
            if (t != null) {
                if (t.notice() != null) {
                    notice("WARNING", t.noticeState(), t.notice());
                }
                if (t.showName() != null) {
                    Result r = new Result();
                    r.columns = ResultColumns.of(List.of(t.showName()), List.of("TEXT"));
                    rows.columns(r.columns, 1);
                    text(t.showValue());
                    r.rowCount = 1;
                    r.tag = "SHOW";
                    return r;
                }
                return tagOnly(t.tag());
            }
        }
        String[] w = PgSql.words(sql, 2);
        if (PgMaintenance.handles(w[0])) { // ---- pgbench: VACUUM / ANALYZE / CHECKPOINT as no-ops ----
            if (tx.failed()) {
                throw new SqlException(SqlState.IN_FAILED_SQL_TRANSACTION,
                        "current transaction is aborted, commands ignored until end of transaction block");
            }
            return tagOnly(PgMaintenance.run(sql, server.engine.engine().catalog(), tx.inBlock()));
        }
        switch (w[0]) {
            case "DISCARD", "DEALLOCATE" -> {
                if (w[0].equals("DISCARD") || w[1].equals("ALL")) {
                    statements.keySet().removeIf(k -> !k.isEmpty());
                    return tagOnly(w[0].equals("DISCARD") ? "DISCARD ALL" : "DEALLOCATE ALL");
                }
                return null;
            }
            default -> {
            }
        }
        if (!w[0].equals("SET") && !w[0].equals("SHOW") && !w[0].equals("RESET")) {
            return null;
        }
        PgSettings.Command c = PgSettings.parse(sql);
        if (c == null) {
            return null;
        }
        switch (c.kind()) {
            case "SHOW" -> {
                String value = settings.get(c.name());
                Result r = new Result();
                r.columns = ResultColumns.of(List.of(c.name()), List.of("TEXT"));
                rows.columns(r.columns, 1);
                text(value);
                r.rowCount = 1;
                r.tag = "SHOW";
                return r;
            }
            case "RESET" -> {
                if (c.name().equals("all")) {
                    return tagOnly("RESET");
                }
                if (settings.reset(c.name())) {
                    PgMessages.parameterStatus(out, PgSettings.display(c.name()), settings.get(c.name()));
                }
                return tagOnly("RESET");
            }
            default -> {
                if (c.value() != null && settings.set(c.name(), c.value())) {
                    PgMessages.parameterStatus(out, PgSettings.display(c.name()), settings.get(c.name()));
                }
                return tagOnly("SET");
            }
        }
    }

    private static Result tagOnly(String tag) {
        Result r = new Result();
        r.tag = tag;
        return r;
    }

    // ---- long queries on a worker ----------------------------------------------------------------

    /** Bytes of a streamed result a worker hands to the event loop at a time. */
    private static final int CHUNK_BYTES = 64 * 1024;
    /** A worker waits while this much of its result is not yet taken by the channel. */
    private static final long MAX_QUEUED_BYTES = 1 << 20;

    /**
     * A statement on a worker: planned again against a read view, its rows encoded there. A
     * result without a row limit streams: each 64 KB of rows goes to the event loop to be
     * written at once, and the worker waits while the client does not read (the channel is not
     * writable), so a large result is never held whole. With a row limit (a portal read in pieces)
     * the rows are kept for the Executes that follow.
     */
    private final class Job implements PgRows.Chunks {
        final Statement.QueryStatement q;
        final String sql;
        final ReadView view;
        final short[] formats;
        final boolean describeFirst;
        final boolean stream;
        /** The session's dialect, read on the event loop: the worker binds the statement again in it. */
        final boolean postgres = settings.postgresDialect();
        final Cancellation cancel = new Cancellation();
        final java.util.concurrent.atomic.AtomicLong queued = new java.util.concurrent.atomic.AtomicLong();
        /** The lane's pool and degree for splitting the statement (parallel), or null: serial. */
        io.respsql.exec.op.Morsels morsels;
        Result result;

        Job(Statement.QueryStatement q, String sql, ReadView view, short[] formats, boolean describeFirst, boolean stream) {
            this.q = q;
            this.sql = sql;
            this.view = view;
            this.formats = formats;
            this.describeFirst = describeFirst;
            this.stream = stream;
        }

        void run() {
            server.started(cancel);
            ByteBuf buf = Unpooled.buffer(1024);
            PgRows sink = new PgRows().on(buf, formats, describeFirst, stream ? this : null);
            try {
                cancel.check();
                PlannedQuery p = StatementPlanner.plan(view, q.query(), sql, postgres);
                io.respsql.engine.BackgroundQueries.runSplit(p, sink, cancel, morsels); // parallel: split over the lane's workers
                Result r = new Result();
                r.columns = sink.columns();
                r.rows = buf;
                r.ownsRows = true;
                r.rowCount = sink.rows();
                r.tag = "SELECT " + sink.rows();
                result = r;
            } catch (SqlException e) {
                buf.release();
                result = Result.error(e.sqlState(), e.getMessage());
            } catch (OutOfMemoryError e) {
                buf.release();
                result = Result.error(SqlState.OUT_OF_MEMORY, "out of memory");
            } catch (Throwable e) {
                buf.release();
                log.error("background query failed: {}", sql, e);
                result = Result.error(SqlState.INTERNAL_ERROR, "internal error: " + e);
            } finally {
                server.finished(cancel);
                try {
                    server.loop.execute(this::done);
                } catch (java.util.concurrent.RejectedExecutionException e) {
                    result.release(); // the server has stopped: nobody to answer
                }
            }
        }

        /** Worker: past a chunk, the rows so far go to the event loop; waits while the client lags. */
        @Override
        public void afterRow(ByteBuf buf) {
            if (buf.readableBytes() < CHUNK_BYTES) {
                return;
            }
            ByteBuf chunk = buf.copy();
            buf.clear();
            int n = chunk.readableBytes();
            queued.addAndGet(n);
            server.loop.execute(() -> {
                queued.addAndGet(-n);
                if (state != State.CLOSED && ctx.channel().isActive()) {
                    server.host.commitNow(); // replies queued before the chunk may answer writes
                    ctx.writeAndFlush(chunk, ctx.voidPromise());
                } else {
                    chunk.release();
                }
            });
            while (queued.get() > MAX_QUEUED_BYTES || !ctx.channel().isWritable()) {
                cancel.check();
                if (!ctx.channel().isActive()) {
                    throw new SqlException(SqlState.CONNECTION_FAILURE, "connection closed");
                }
                java.util.concurrent.locks.LockSupport.parkNanos(2_000_000L);
            }
        }

        /** Event loop: the result is taken by the message that started it, handled again now. */
        void done() {
            view.release();
            job = null;
            if (state == State.CLOSED) {
                result.release();
                return;
            }
            pending = result;
            drain();
            flush();
        }
    }

    @Override
    public boolean wouldOffload(PlannedQuery plan, ParamValues params) {
        long threshold = server.config.bgQueryMinRows();
        return threshold > 0 && !plan.tablesRead().isEmpty() && plan.estimatedRowsTouched(params) >= threshold;
    }

    @Override
    public boolean offer(Statement.QueryStatement q, String sql, PlannedQuery plan) {
        return offer(q, sql, plan, false);
    }

    @Override
    public boolean offer(Statement.QueryStatement q, String sql, PlannedQuery plan, boolean moved) {
        return offer(q, sql, plan, moved, server.catalog::readView);
    }

    @Override
    public boolean offer(Statement.QueryStatement q, String sql, PlannedQuery plan, boolean moved,
                         java.util.function.Function<java.util.Collection<io.respsql.storage.Table>, ReadView> views) {
        // by its estimate when it reads enough rows; any query that overran the event-loop bound inline
        if (!moved && !wouldOffload(plan, null) || !ctx.channel().isActive()) {
            return false;
        }
        rows.discard(); // an inline attempt that overran its bound: its rows are not sent
        boolean stream = runTarget == out;
        flush(); // what was answered before goes ahead of the worker's chunks
        // txfix: the engine's image (a transaction's snapshot, or the live tables, its own uncommitted writes included)
        ReadView view = io.respsql.engine.BackgroundQueries.viewFor(views, plan);
        Job j = new Job(q, sql, view, runFormats, runDescribe, stream);
        long timeout = settings.statementTimeoutMs() >= 0 ? settings.statementTimeoutMs() : server.config.queryTimeoutMs();
        if (timeout > 0) {
            j.cancel.arm(Cancellation.deadline(System.nanoTime(), timeout), SqlEngine.timeoutReason(timeout), 0, null);
        }
        job = j;
        try {
            long rows = moved ? 0 : plan.estimatedRowsTouched(null); // parallel: the short lane
            boolean quick = io.respsql.engine.BackgroundQueries.shortLane(rows, server.config.bgQueryShortRows(), moved);
            java.util.concurrent.ExecutorService lane = quick ? server.shortWorkers : server.workers;
            j.morsels = server.config.bgQueryThreads() > 1 && !quick ? new io.respsql.exec.op.Morsels(lane, server.config.bgQueryThreads(),
                    server.config.bgQueryMorselRows()) : null;
            lane.execute(j::run);
        } catch (RuntimeException e) { // workers stopped: the server is closing
            view.release();
            job = null;
            throw new SqlException(SqlState.QUERY_CANCELED, "query cancelled: server shutting down");
        }
        return true;
    }

    // ---- replies -------------------------------------------------------------------------------

    private void error(String sqlState, String message, int position) {
        if (out == null) {
            return; // closed by a FATAL error
        }
        PgMessages.error(out, 'E', "ERROR", sqlState, message, position);
    }

    private void notice(String severity, String sqlState, String message) {
        if (out == null) {
            return;
        }
        PgMessages.error(out, 'N', severity, sqlState, message, 0);
    }

    /** A FATAL error: sent, then the connection closes. */
    private void fatal(String sqlState, String message) {
        if (out == null) {
            ctx.close();
            return;
        }
        PgMessages.error(out, 'E', "FATAL", sqlState, message, 0);
        state = State.CLOSED;
        server.host.commitNow();
        ctx.writeAndFlush(out).addListener(ChannelFutureListener.CLOSE);
        out = null;
    }

    private static String cstring(ByteBuf f) {
        int end = f.indexOf(f.readerIndex(), f.writerIndex(), (byte) 0);
        if (end < 0) {
            throw new SqlException("08P01", "invalid message format: a string without its terminating zero");
        }
        String s = PgMessages.utf8(f, end - f.readerIndex());
        f.skipBytes(1);
        return s;
    }
}
