package io.respsql.command;

import io.respsql.client.Session;
import io.respsql.protocol.RespWriter;
import io.respsql.pubsub.PubSub;

import java.util.ArrayList;
import java.util.List;

/** SUBSCRIBE, UNSUBSCRIBE, PSUBSCRIBE, PUNSUBSCRIBE, PUBLISH, PUBSUB CHANNELS / NUMSUB / NUMPAT / HELP. */
final class PubSubCommands {
    private final PubSub hub;
    private final ServerContext ctx;

    private PubSubCommands(ServerContext ctx) {
        this.hub = ctx.pubsub();
        this.ctx = ctx;
    }

    static List<CommandSpec> specs(ServerContext ctx) {
        PubSubCommands c = new PubSubCommands(ctx);
        // Allowed while subscribed: the (un)subscribe family itself.
        int sub = CommandFlags.NOSCRIPT | CommandFlags.LOADING | CommandFlags.STALE | CommandFlags.PUBSUB_CONTEXT;
        int info = CommandFlags.LOADING | CommandFlags.STALE;
        return List.of(
            CommandSpec.builder("subscribe", -2).flags(sub).group("pubsub")
                .summary("Listens for messages published to channels.")
                .handler((s, a, out) -> c.hub.subscribe(s, names(a, 1), out)).build(),
            CommandSpec.builder("unsubscribe", -1).flags(sub).group("pubsub")
                .summary("Stops listening to messages posted to channels.")
                .handler((s, a, out) -> c.hub.unsubscribe(s, names(a, 1), out)).build(),
            CommandSpec.builder("psubscribe", -2).flags(sub).group("pubsub")
                .summary("Listens for messages published to channels that match one or more patterns.")
                .handler((s, a, out) -> c.hub.psubscribe(s, names(a, 1), out)).build(),
            CommandSpec.builder("punsubscribe", -1).flags(sub).group("pubsub")
                .summary("Stops listening to messages published to channels that match one or more patterns.")
                .handler((s, a, out) -> c.hub.punsubscribe(s, names(a, 1), out)).build(),
            CommandSpec.builder("publish", 3).flags(info | CommandFlags.FAST).group("pubsub")
                .summary("Posts a message to a channel.")
                .handler(c::publish).build(),
            CommandSpec.builder("pubsub", -2).group("pubsub")
                .summary("A container for Pub/Sub commands.")
                .handler((s, a, out) -> out.error("ERR wrong number of arguments for 'pubsub' command"))
                .subcommand(CommandSpec.builder("channels", -2).flags(info).group("pubsub")
                    .summary("Returns the active channels.").handler(c::channels).build())
                .subcommand(CommandSpec.builder("numsub", -2).flags(info).group("pubsub")
                    .summary("Returns a count of subscribers to channels.").handler(c::numsub).build())
                .subcommand(CommandSpec.builder("numpat", 2).flags(info).group("pubsub")
                    .summary("Returns a count of unique pattern subscriptions.")
                    .handler((s, a, out) -> out.integer(c.hub.numpat())).build())
                .subcommand(CommandSpec.builder("help", 2).flags(info).group("pubsub")
                    .summary("Returns helpful text about the different subcommands.").handler(PubSubCommands::help).build())
                .build());
    }

    /** As Redis: a master's PUBLISH also reaches the subscribers on its replicas, through the stream. */
    private void publish(Session s, CommandArgs a, RespWriter out) {
        byte[] channel = a.bytes(1);
        out.integer(hub.publish(channel, a.get(2)));
        if (ctx.replication() != null) {
            ctx.replication().published(channel, a.get(2));
        }
    }

    private static List<byte[]> names(CommandArgs a, int from) {
        List<byte[]> names = new ArrayList<>(a.count() - from);
        for (int i = from; i < a.count(); i++) {
            names.add(a.bytes(i));
        }
        return names;
    }

    /** {@code PUBSUB CHANNELS [pattern]}. */
    private void channels(Session s, CommandArgs a, RespWriter out) {
        if (a.count() > 3) {
            out.error("ERR wrong number of arguments for 'pubsub|channels' command");
            return;
        }
        List<byte[]> list = hub.channels(a.count() == 3 ? a.bytes(2) : null);
        out.arrayHeader(list.size());
        for (byte[] ch : list) {
            out.bulk(ch);
        }
    }

    /** {@code PUBSUB NUMSUB [channel ...]}: channel, count pairs in a flat array. */
    private void numsub(Session s, CommandArgs a, RespWriter out) {
        out.arrayHeader(2L * (a.count() - 2));
        for (int i = 2; i < a.count(); i++) {
            byte[] ch = a.bytes(i);
            out.bulk(ch);
            out.integer(hub.numsub(ch));
        }
    }

    private static void help(Session s, CommandArgs a, RespWriter out) {
        Replies.help(out, "PUBSUB", List.of(
            "CHANNELS [<pattern>]",
            "    Return the currently active channels matching a <pattern> (default: '*').",
            "NUMPAT",
            "    Return number of subscriptions to patterns.",
            "NUMSUB [<channel> ...]",
            "    Return the number of subscribers for the specified channels, excluding",
            "    pattern subscriptions(default: no channels)."));
    }
}
