package io.respsql.command;

import io.respsql.client.Session;
import io.respsql.protocol.RespWriter;

/** Runs one command and writes exactly one reply to {@code out}. Called on the event loop. */
@FunctionalInterface
public interface CommandHandler {
    void execute(Session session, CommandArgs args, RespWriter out);
}
