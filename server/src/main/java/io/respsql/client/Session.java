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
public final class Session {
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
    /** Bytes of the unfinished request being received, as last reported by the connection. */
    private long queryBufferBytes;
    /** Pub/Sub channels and patterns subscribed to (kept by io.respsql.pubsub). */
    private int channelSubscriptions;
    private int patternSubscriptions;
    /** Where messages that are not replies to this client's own commands go (set by the connection). */
    private Outlet outlet;

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
        this.connectedAtMillis = nowMillis;
        this.lastInteractionMillis = nowMillis;
    }

    public long id() {
        return id;
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

    /** RESP protocol version in use (always 2 for now). */
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

    public void outlet(Outlet outlet) {
        this.outlet = outlet;
    }

    /** Sends a Pub/Sub message frame (released when there is no connection any more). */
    public void deliver(ByteBuf frame) {
        if (outlet == null || closing) {
            frame.release();
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

    /** Remote address as {@code ip:port} ({@code [ip]:port} for IPv6). */
    public String addr() {
        return addr;
    }

    public String laddr() {
        return laddr;
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

    /** Appends this client's {@code CLIENT LIST} line (without the trailing newline). */
    public void appendInfoLine(StringBuilder sb, long nowMillis) {
        sb.append("id=").append(id)
          .append(" addr=").append(addr)
          .append(" laddr=").append(laddr)
          .append(" fd=-1")
          .append(" name=").append(name)
          .append(" age=").append(Math.max(0, (nowMillis - connectedAtMillis) / 1000))
          .append(" idle=").append(Math.max(0, (nowMillis - lastInteractionMillis) / 1000))
          .append(" flags=").append(inPubSub() ? "P" : "N")
          .append(" db=").append(db)
          .append(" sub=").append(channelSubscriptions)
          .append(" psub=").append(patternSubscriptions)
          .append(" ssub=0 multi=-1")
          .append(" qbuf=").append(queryBufferBytes)
          .append(" omem=").append(pendingOutputBytes())
          .append(" events=r")
          .append(" cmd=").append(lastCommand == null ? "NULL" : lastCommand)
          .append(" user=default redir=-1")
          .append(" resp=").append(protocol)
          .append(" lib-name=").append(libName)
          .append(" lib-ver=").append(libVer);
    }

    private static String format(SocketAddress address) {
        if (address instanceof InetSocketAddress isa) {
            String ip = isa.getAddress() != null ? isa.getAddress().getHostAddress() : isa.getHostString();
            return ip.indexOf(':') >= 0 ? "[" + ip + "]:" + isa.getPort() : ip + ":" + isa.getPort();
        }
        return String.valueOf(address);
    }
}
