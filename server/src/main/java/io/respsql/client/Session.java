package io.respsql.client;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOutboundBuffer;

import java.net.InetSocketAddress;
import java.net.SocketAddress;

/**
 * State of one client connection, as commands see it (like Redis's client struct): identity (id,
 * name, library), protocol, timestamps, the last command, whether it is closing. Shared by the
 * network layer, which owns the connection, and the commands, which read and change it; it depends
 * on neither. Event-loop thread only.
 */
public final class Session implements io.respsql.engine.QueryClient {
    private final long id;
    private final Channel channel;
    private final String addr;
    private final String laddr;
    private final long connectedAtMillis;

    private String name = "";
    private String libName = "";
    private String libVer = "";
    private int protocol = 2;
    private int db;
    /** Full name of the last command run ("client|list"), for CLIENT LIST. */
    private String lastCommand;
    private long lastInteractionMillis;
    private boolean closing;
    /** Whether the client may run commands that need authentication (see {@code requirepass}). */
    private boolean authenticated;
    /** The ACL user the connection is authenticated as (null: the default user). */
    private io.respsql.acl.AclUser user;
    /** The socket's file descriptor for CLIENT LIST; {@link #FD_UNKNOWN} until looked up (see {@link SocketFds}). */
    private int fd = FD_UNKNOWN;
    private static final int FD_UNKNOWN = Integer.MIN_VALUE;
    /** Whether this connection is a replica's (after PSYNC): CLIENT LIST flag S. */
    private boolean replica;
    /** A blocking command (WAIT) holds the client: its further requests wait, in order. */
    private boolean blocked;
    private Runnable onUnblock = () -> { };
    /** The replication stream's offset after this client's last write command (Redis's {@code woff}, for WAIT). */
    private long replicationOffset;
    /** Bytes of the unfinished request being received, as last reported by the connection. */
    private long queryBufferBytes;
    /** Non-null between MULTI and EXEC/DISCARD. */
    private Transaction transaction;
    /** Non-null while the client WATCHes tables. */
    private Transaction.Watches watches;
    /** Pub/Sub channels and patterns subscribed to (kept by io.respsql.pubsub). */
    private int channelSubscriptions;
    private int patternSubscriptions;
    /** Where messages that are not replies to this client's own commands go (set by the connection). */
    private Outlet outlet;
    /** {@code SET use_indexes = off}: this connection's statements are planned without indexes. */
    private boolean useIndexes = true;

    /**
     * Writes out-of-band frames (Pub/Sub messages) to the client, after the replies already queued
     * for it and without blocking: implemented by the network layer, which owns the connection.
     */
    public interface Outlet {
        /** Queues {@code frame} (ownership passes) and schedules its flush. */
        void deliver(ByteBuf frame);
    }

    Session(long id, Channel channel, long nowMillis) {
        this.id = id;
        this.channel = channel;
        this.addr = format(channel.remoteAddress());
        this.laddr = format(channel.localAddress());
        // A native channel (epoll) knows its descriptor; NIO's are looked up in /proc (SocketFds).
        if (channel instanceof io.netty.channel.unix.UnixChannel unix && unix.fd().isOpen()) {
            this.fd = unix.fd().intValue();
        }
        this.connectedAtMillis = nowMillis;
        this.lastInteractionMillis = nowMillis;
    }

    /** Whether this connection's statements may use indexes ({@code SET use_indexes}); true by default. */
    public boolean useIndexes() {
        return useIndexes;
    }

    public void useIndexes(boolean on) {
        this.useIndexes = on;
    }

    /** {@code SET sql_dialect TO postgresql}: this connection's statements mean what PostgreSQL 15 means ({@link io.respsql.sql.Dialect}). */
    private boolean postgresDialect;

    public boolean postgresDialect() {
        return postgresDialect;
    }

    public void postgresDialect(boolean on) {
        this.postgresDialect = on;
    }

    // ---- regress25 ----
    /** PostgreSQL settings this connection SET that RespSQL only keeps (DateStyle, ...); null until one is set. */
    private java.util.Map<String, String> pgSettings;

    /** The value this connection SET for {@code name} (lower case), or null: the default. */
    public String pgSetting(String name) {
        return pgSettings == null ? null : pgSettings.get(name);
    }

    /** Sets (null: resets) a kept PostgreSQL setting. */
    public void pgSetting(String name, String value) {
        if (pgSettings == null) {
            pgSettings = new java.util.HashMap<>();
        }
        if (value == null) {
            pgSettings.remove(name);
        } else {
            pgSettings.put(name, value);
        }
    }

    /** This connection's currval/lastval (PostgreSQL's session state of sequences); made at first use. */
    private io.respsql.storage.SequenceSession sequences;

    public io.respsql.storage.SequenceSession sequences() {
        if (sequences == null) {
            sequences = new io.respsql.storage.SequenceSession();
        }
        return sequences;
    }

    public long id() {
        return id;
    }

    /** {@code SET statement_timeout}: ms (0: none); -1 (unset): the server's query-timeout-ms. */
    private long statementTimeoutMs = -1;

    public long statementTimeoutMs() {
        return statementTimeoutMs;
    }

    public void statementTimeoutMs(long ms) {
        this.statementTimeoutMs = ms;
    }

    /** Client name set by {@code CLIENT SETNAME} or {@code HELLO ... SETNAME}; empty if none. */
    public String name() {
        return name;
    }

    public void name(String name) {
        this.name = name;
    }

    public String libName() {
        return libName;
    }

    public void libName(String libName) {
        this.libName = libName;
    }

    public String libVer() {
        return libVer;
    }

    public void libVer(String libVer) {
        this.libVer = libVer;
    }

    /** RESP protocol version in use: 2 (the default) or 3 after {@code HELLO 3}. */
    public int protocol() {
        return protocol;
    }

    public void protocol(int protocol) {
        this.protocol = protocol;
    }

    public int db() {
        return db;
    }

    public long connectedAtMillis() {
        return connectedAtMillis;
    }

    public String lastCommand() {
        return lastCommand;
    }

    /** Records that {@code command} is being run now. */
    public void commandStarted(String command, long nowMillis) {
        this.lastCommand = command;
        this.lastInteractionMillis = nowMillis;
    }

    public boolean authenticated() {
        return authenticated;
    }

    public void authenticated(boolean authenticated) {
        this.authenticated = authenticated;
    }

    /** The ACL user of the connection; null: the default user. */
    public io.respsql.acl.AclUser user() {
        return user;
    }

    public void user(io.respsql.acl.AclUser user) {
        this.user = user;
    }

    /** The ACL user's name, for CLIENT LIST and ACL LOG. */
    public String userName() {
        return user == null ? "default" : user.name();
    }

    // ---- tx: interactive transactions (SQL "BEGIN" ... "COMMIT") ----
    private io.respsql.engine.Transactions.Tx sqlTx;
    private byte[][] parked;

    /** This connection's SQL transaction state, made at first use. */
    public io.respsql.engine.Transactions.Tx sqlTx() {
        if (sqlTx == null) {
            sqlTx = new io.respsql.engine.Transactions.Tx();
        }
        return sqlTx;
    }

    /** The SQL transaction state, or null when none was ever made (autocommit: nothing to look at). */
    public io.respsql.engine.Transactions.Tx sqlTxOrNull() {
        return sqlTx;
    }

    /** A command waiting for another connection's transaction: run again by the connection once unblocked. */
    public void park(byte[][] command) {
        this.parked = command;
    }

    public byte[][] takeParked() {
        byte[][] p = parked;
        parked = null;
        return p;
    }

    /** The open MULTI block, or null when the client is not in MULTI. */
    public Transaction transaction() {
        return transaction;
    }

    /** MULTI: commands are queued from now on. */
    public void beginTransaction() {
        transaction = new Transaction(postgresDialect);
    }

    /** Leaves MULTI (EXEC, DISCARD), returning the block. */
    public Transaction endTransaction() {
        Transaction t = transaction;
        transaction = null;
        return t;
    }

    /** The tables this client WATCHes, or null. */
    public Transaction.Watches watches() {
        return watches;
    }

    /** The client's watches, created on first use (WATCH). */
    public Transaction.Watches watchesForUpdate() {
        if (watches == null) {
            watches = new Transaction.Watches();
        }
        return watches;
    }

    /** Forgets every watched table (UNWATCH, EXEC, DISCARD). */
    public void unwatch() {
        watches = null;
    }

    public void outlet(Outlet outlet) {
        this.outlet = outlet;
    }

    /** Messages to this client held back while EXEC runs its block (see {@link #holdDeliveries}). */
    private java.util.ArrayDeque<ByteBuf> heldFrames;
    private boolean holdingFrames;

    /**
     * EXEC: messages published to this client (by its own block) wait until the block's reply is
     * written, so none lands inside EXEC's array, nor is dropped with it when a statement fails.
     */
    public void holdDeliveries() {
        holdingFrames = true;
    }

    /** Sends the messages held since {@link #holdDeliveries}, after the reply written so far. */
    public void releaseDeliveries() {
        holdingFrames = false;
        if (heldFrames != null) {
            ByteBuf f;
            while ((f = heldFrames.poll()) != null) {
                deliver(f);
            }
        }
    }

    /** Sends a Pub/Sub message frame (released when there is no connection any more). */
    public void deliver(ByteBuf frame) {
        if (outlet == null || closing) {
            frame.release();
        } else if (holdingFrames) {
            (heldFrames == null ? heldFrames = new java.util.ArrayDeque<>() : heldFrames).add(frame);
        } else {
            outlet.deliver(frame);
        }
    }

    /** Records the number of channel and pattern subscriptions (Pub/Sub). */
    public void subscriptions(int channels, int patterns) {
        this.channelSubscriptions = channels;
        this.patternSubscriptions = patterns;
    }

    public int channelSubscriptions() {
        return channelSubscriptions;
    }

    public int patternSubscriptions() {
        return patternSubscriptions;
    }

    /**
     * Whether the client is in Pub/Sub mode (at least one subscription): a RESP2 client then may
     * only (un)subscribe, PING, QUIT and RESET, and its output is bounded by the pubsub class of
     * {@code client-output-buffer-limit}.
     */
    public boolean inPubSub() {
        return channelSubscriptions + patternSubscriptions > 0;
    }

    /** Asks the connection to close once the replies written so far are sent (QUIT). */
    public void closeAfterReply() {
        closing = true;
    }

    public boolean isClosing() {
        return closing;
    }

    /** The connection (replication takes a replica's connection over for the stream it sends). */
    public Channel channel() {
        return channel;
    }

    /** Remote address as {@code ip:port} ({@code [ip]:port} for IPv6). */
    public String addr() {
        return addr;
    }

    public String laddr() {
        return laddr;
    }

    public boolean isReplica() {
        return replica;
    }

    /** The connection carries the replication stream to a replica from now on. */
    public void markReplica() {
        this.replica = true;
    }

    /** Holds the client after the current command: no further request of it runs until {@link #unblock()}. */
    public void block() {
        blocked = true;
    }

    public boolean isBlocked() {
        return blocked;
    }

    /** Lets the client's held requests run again (after the blocking command's reply was written). */
    public void unblock() {
        if (blocked) {
            blocked = false;
            onUnblock.run();
        }
    }

    /** Set by the connection: resumes reading once the client is unblocked. */
    public void onUnblock(Runnable r) {
        this.onUnblock = r;
    }

    public long replicationOffset() {
        return replicationOffset;
    }

    public void replicationOffset(long offset) {
        this.replicationOffset = offset;
    }

    public long queryBufferBytes() {
        return queryBufferBytes;
    }

    public void queryBufferBytes(long bytes) {
        this.queryBufferBytes = bytes;
    }

    /** Closes the connection now, without waiting for anything (CLIENT KILL). */
    public void kill() {
        closing = true;
        channel.config().setAutoRead(false);
        channel.close();
    }

    /** Bytes waiting in the outbound buffer (sent to the socket but not yet written out). */
    public long pendingOutputBytes() {
        ChannelOutboundBuffer ob = channel.unsafe().outboundBuffer();
        return ob == null ? 0 : ob.totalPendingWriteBytes();
    }

    boolean fdUnknown() {
        return fd == FD_UNKNOWN;
    }

    void fd(int fd) {
        this.fd = fd;
    }

    SocketAddress localAddress() {
        return channel.localAddress();
    }

    SocketAddress remoteAddress() {
        return channel.remoteAddress();
    }

    /**
     * Looks up the socket descriptors of {@code sessions} not looked up yet, so that their
     * {@code CLIENT LIST} lines show a real {@code fd} ({@code -1} where it cannot be found).
     */
    public static void resolveFds(java.util.Collection<Session> sessions) {
        SocketFds.resolve(sessions);
    }

    /** Appends this client's {@code CLIENT LIST} line (without the trailing newline). */
    public void appendInfoLine(StringBuilder sb, long nowMillis) {
        sb.append("id=").append(id)
          .append(" addr=").append(addr)
          .append(" laddr=").append(laddr)
          .append(" fd=").append(fd == FD_UNKNOWN ? -1 : fd)
          .append(" name=").append(name)
          .append(" age=").append(Math.max(0, (nowMillis - connectedAtMillis) / 1000))
          .append(" idle=").append(Math.max(0, (nowMillis - lastInteractionMillis) / 1000))
          .append(" flags=");
        // Redis's letters, in its order: S replica, P subscriber, x in MULTI, b blocked; N for none.
        int flagsAt = sb.length();
        if (replica) {
            sb.append('S');
        }
        if (inPubSub()) {
            sb.append('P');
        }
        if (transaction != null) {
            sb.append('x');
        }
        if (blocked) {
            sb.append('b');
        }
        if (sb.length() == flagsAt) {
            sb.append('N');
        }
        sb.append(" db=").append(db)
          .append(" sub=").append(channelSubscriptions)
          .append(" psub=").append(patternSubscriptions)
          .append(" ssub=0 multi=").append(transaction == null ? -1 : transaction.queued().size())
          .append(" qbuf=").append(queryBufferBytes)
          // Redis 7's remaining fields, so clients that parse every one (redis-py's client_info())
          // find them; buffers this server does not keep separately read 0.
          .append(" qbuf-free=0 argv-mem=0 multi-mem=").append(transaction == null ? 0 : queuedBytes(transaction))
          .append(" rbs=0 rbp=0 obl=0 oll=0")
          .append(" omem=").append(pendingOutputBytes())
          .append(" tot-mem=").append(queryBufferBytes + pendingOutputBytes())
          .append(" events=r")
          .append(" cmd=").append(lastCommand == null ? "NULL" : lastCommand)
          .append(" user=").append(userName()).append(" redir=-1")
          .append(" resp=").append(protocol)
          .append(" lib-name=").append(libName)
          .append(" lib-ver=").append(libVer);
    }

    private static long queuedBytes(Transaction t) {
        long n = 0;
        for (byte[][] command : t.queued()) {
            for (byte[] arg : command) {
                n += arg.length;
            }
        }
        return n;
    }

    private static String format(SocketAddress address) {
        if (address instanceof InetSocketAddress isa) {
            String ip = isa.getAddress() != null ? isa.getAddress().getHostAddress() : isa.getHostString();
            return ip.indexOf(':') >= 0 ? "[" + ip + "]:" + isa.getPort() : ip + ":" + isa.getPort();
        }
        return String.valueOf(address);
    }
}
