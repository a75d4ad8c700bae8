package io.troupe.benchmarks.net;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;

import io.netty.buffer.ByteBufUtil;
import io.netty.channel.ChannelHandlerContext;
import org.apache.pekko.actor.ActorRef;
import org.apache.pekko.actor.ActorSystem;
import org.apache.pekko.actor.Props;
import scala.concurrent.Await;
import scala.concurrent.duration.Duration;

/**
 * Echo through Pekko, structured like Troupe: one {@link EchoActor} per tenant; the event loop
 * copies each request's name and content out of the network buffer into an
 * {@link EchoActor.Echo} message and tells the actor, which writes the REPLY back with
 * {@code channel.writeAndFlush} from its dispatcher thread.
 *
 * <p>The dispatcher is tuned as for the in-process comparison: the default dispatcher is a
 * fork-join executor with parallelism = cores ({@link #CONFIG}); the throughput setting is
 * Pekko's default of 5 messages per actor turn.
 *
 * <p><b>Threading:</b> {@link #echo} and {@link #bye} on event loops (they only tell);
 * {@link #close} once, from the server's closing thread.
 */
final class PekkoEcho implements EchoService {

    /** The Pekko configuration used, on top of Pekko's reference.conf. */
    static final String CONFIG = """
            pekko {
              loglevel = WARNING
              stdout-loglevel = WARNING
              log-dead-letters = off
              jvm-shutdown-hooks = off
              actor.default-dispatcher {
                executor = fork-join-executor
                fork-join-executor {
                  parallelism-min = %1$d
                  parallelism-factor = 1.0
                  parallelism-max = %1$d
                }
                throughput = 5
              }
            }
            """.formatted(Runtime.getRuntime().availableProcessors());

    private final ActorSystem system;
    private final Map<String, ActorRef> actorsByTenant;

    PekkoEcho(String tenant) {
        Config config = ConfigFactory.parseString(CONFIG).withFallback(ConfigFactory.load());
        system = ActorSystem.create("echo-server", config);
        actorsByTenant = Map.of(tenant, system.actorOf(Props.create(EchoActor.class), "echo-" + tenant));
    }

    @Override
    public void echo(ChannelHandlerContext ctx, String tenant, InboundFrame request) {
        try {
            EchoActor.Echo echo = new EchoActor.Echo(ctx.channel(), request.corrId(),
                    request.name().toString(StandardCharsets.UTF_8), ByteBufUtil.getBytes(request.content()));
            actorsByTenant.get(tenant).tell(echo, ActorRef.noSender());
        } finally {
            request.release();
        }
    }

    @Override
    public void bye(ChannelHandlerContext ctx, String tenant) {
        actorsByTenant.get(tenant).tell(new EchoActor.Bye(ctx.channel()), ActorRef.noSender());
    }

    @Override
    public void close() {
        system.terminate();
        try {
            Await.ready(system.whenTerminated(), Duration.create(5, TimeUnit.SECONDS));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (java.util.concurrent.TimeoutException e) {
            System.err.println("NettyPekkoServer: the actor system did not terminate within 5 s");
        }
    }
}
