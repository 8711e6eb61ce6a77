package io.respsql.replication;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.respsql.client.Session;

/** The master's view of one connected replica (Redis's slave client fields). Event loop only. */
final class ReplicaPeer {
    enum State {
        /** Asked for a full sync; waits for the one capture slot. */
        WAIT_BGSAVE_START("wait_bgsave"),
        /** Its snapshot is being written; records since the capture collect in {@link #syncBuffer}. */
        WAIT_BGSAVE_END("wait_bgsave"),
        ONLINE("online");

        final String infoName;

        State(String infoName) {
            this.infoName = infoName;
        }
    }

    final Session session;
    final Channel channel;
    final String ip;
    int listeningPort;
    /** Null until PSYNC. */
    State state;
    /** Offset of the last stream byte handed to the connection (or to {@link #syncBuffer}). */
    long sent;
    long ackOffset;
    long lastAckMillis;
    ByteBuf syncBuffer;
    /** Bytes of the snapshot file still queued on the connection (not counted against the output limit). */
    long snapshotBytesPending;

    ReplicaPeer(Session session, String ip, long nowMillis) {
        this.session = session;
        this.channel = session.channel();
        this.ip = ip;
        this.lastAckMillis = nowMillis;
    }

    void releaseBuffer() {
        if (syncBuffer != null) {
            syncBuffer.release();
            syncBuffer = null;
        }
    }
}
