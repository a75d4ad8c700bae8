package io.troupe.benchmarks.inprocess;

import io.troupe.api.Actor;
import io.troupe.api.ActorContext;
import io.troupe.api.ActorFactory;
import io.troupe.api.ActorOptions;
import io.troupe.api.ActorRef;
import io.troupe.api.ChildStopped;
import io.troupe.api.TroupeRuntime;

/**
 * The workloads written with Troupe's API ({@link Actor}, {@link ActorContext}), the way a plugin
 * author writes actors: {@code ctx.reply}, {@code tell}, {@code ctx.spawn}, {@code ChildStopped}.
 *
 * <p><b>Threading:</b> the factory methods run on the benchmark thread; the actors run on Troupe's
 * workers, one message at a time each, so their fields need no synchronisation.
 */
final class TroupeWorkloads {

    /** The ball every workload bounces: messages carry no payload. */
    private static final Object BALL = new Object();

    private TroupeWorkloads() {
    }

    static Workload pingPong(TroupeRuntime runtime, PingPongShape shape) {
        ActorRef[] pingers = new ActorRef[shape.pairs()];
        for (int i = 0; i < pingers.length; i++) {
            ActorRef ponger = runtime.spawn(Ponger::new, ActorOptions.defaults());
            pingers[i] = runtime.spawn(() -> new Pinger(ponger, shape), ActorOptions.defaults());
        }
        return () -> {
            RoundSignal round = new RoundSignal(pingers.length);
            for (ActorRef pinger : pingers) {
                pinger.tell(round, null);
            }
            round.await();
        };
    }

    static Workload fanOut(TroupeRuntime runtime) {
        ActorRef parent = runtime.spawn(FanOutParent::new,
                ActorOptions.defaults().withMailboxCapacity(WorkloadKind.FLOODED_MAILBOX_CAPACITY));
        return () -> {
            RoundSignal round = new RoundSignal(1);
            parent.tell(round, null);
            round.await();
        };
    }

    static Workload oneMailbox(TroupeRuntime runtime, int senderCount) {
        int share = WorkloadKind.MAILBOX_MESSAGES / senderCount;
        ActorRef receiver = runtime.spawn(() -> new Receiver(share * senderCount),
                ActorOptions.defaults().withMailboxCapacity(WorkloadKind.FLOODED_MAILBOX_CAPACITY));
        ActorRef[] senders = new ActorRef[senderCount];
        for (int i = 0; i < senderCount; i++) {
            senders[i] = runtime.spawn(() -> new Sender(receiver, share), ActorOptions.defaults());
        }
        return () -> {
            RoundSignal round = new RoundSignal(1);
            receiver.tell(round, null);
            for (ActorRef sender : senders) {
                sender.tell(BALL, null);
            }
            round.await();
        };
    }

    static Workload spawnStop(TroupeRuntime runtime, int count) {
        ActorRef parent = runtime.spawn(() -> new SpawnParent(count), ActorOptions.defaults());
        return () -> {
            RoundSignal round = new RoundSignal(1);
            parent.tell(round, null);
            round.await();
        };
    }

    static void spawnIdle(TroupeRuntime runtime, int count) throws Exception {
        RoundSignal started = new RoundSignal(count);
        // one factory for all, as Pekko one Props
        ActorFactory factory = () -> new Idle(started);
        for (int i = 0; i < count; i++) {
            runtime.spawn(factory, ActorOptions.defaults());
        }
        started.await();
    }

    /** Sends every ball straight back. */
    private static final class Ponger implements Actor {
        @Override
        public void receive(ActorContext ctx, Object message) {
            ctx.reply(message);
        }
    }

    /** Keeps {@code inFlight} balls bouncing off its ponger until the round's count has come back. */
    private static final class Pinger implements Actor {
        private final ActorRef ponger;
        private final PingPongShape shape;
        private RoundSignal round;
        private int sent;
        private int received;

        Pinger(ActorRef ponger, PingPongShape shape) {
            this.ponger = ponger;
            this.shape = shape;
        }

        @Override
        public void receive(ActorContext ctx, Object message) {
            if (message instanceof RoundSignal start) {
                round = start;
                sent = 0;
                received = 0;
                for (int i = 0; i < shape.inFlight() && sent < shape.roundTripsPerPair(); i++) {
                    sent++;
                    ponger.tell(BALL, ctx.self());
                }
                return;
            }
            received++;
            if (sent < shape.roundTripsPerPair()) {
                sent++;
                ponger.tell(BALL, ctx.self());
            } else if (received == shape.roundTripsPerPair()) {
                round.done();
            }
        }
    }

    /** Spreads the round's messages over its children and counts their receipts. */
    private static final class FanOutParent implements Actor {
        private final ActorRef[] children = new ActorRef[WorkloadKind.FAN_OUT_CHILDREN];
        private RoundSignal round;
        private int receipts;

        @Override
        public void preStart(ActorContext ctx) {
            for (int i = 0; i < children.length; i++) {
                children[i] = ctx.spawn(Ponger::new, ActorOptions.defaults());
            }
        }

        @Override
        public void receive(ActorContext ctx, Object message) {
            if (message instanceof RoundSignal start) {
                round = start;
                receipts = 0;
                ActorRef self = ctx.self();
                for (int i = 0; i < WorkloadKind.FAN_OUT_MESSAGES; i++) {
                    children[i % children.length].tell(BALL, self);
                }
                return;
            }
            if (++receipts == WorkloadKind.FAN_OUT_MESSAGES) {
                round.done();
            }
        }
    }

    /** Counts what its senders send; the round is over when all of it has arrived. */
    private static final class Receiver implements Actor {
        private final int expected;
        private RoundSignal round;
        private int received;

        Receiver(int expected) {
            this.expected = expected;
        }

        @Override
        public void receive(ActorContext ctx, Object message) {
            if (message instanceof RoundSignal start) {
                round = start;
                received = 0;
            } else if (++received == expected) {
                round.done();
            }
        }
    }

    /** On each go, sends its share of the round to the receiver in one burst. */
    private static final class Sender implements Actor {
        private final ActorRef receiver;
        private final int share;

        Sender(ActorRef receiver, int share) {
            this.receiver = receiver;
            this.share = share;
        }

        @Override
        public void receive(ActorContext ctx, Object message) {
            ActorRef self = ctx.self();
            for (int i = 0; i < share; i++) {
                receiver.tell(BALL, self);
            }
        }
    }

    /** Spawns children that stop themselves, keeping a window of them alive, until the count is reached. */
    private static final class SpawnParent implements Actor {
        private final int count;
        private RoundSignal round;
        private int spawned;
        private int stopped;

        SpawnParent(int count) {
            this.count = count;
        }

        @Override
        public void receive(ActorContext ctx, Object message) {
            if (message instanceof RoundSignal start) {
                round = start;
                spawned = 0;
                stopped = 0;
                while (spawned < Math.min(count, WorkloadKind.SPAWN_WINDOW)) {
                    spawnOne(ctx);
                }
            } else if (message instanceof ChildStopped) {
                if (++stopped == count) {
                    round.done();
                } else if (spawned < count) {
                    spawnOne(ctx);
                }
            }
        }

        private void spawnOne(ActorContext ctx) {
            spawned++;
            ctx.spawn(SelfStopping::new, ActorOptions.defaults());
        }
    }

    /** Stops as soon as it has started. */
    private static final class SelfStopping implements Actor {
        @Override
        public void preStart(ActorContext ctx) {
            ctx.stop();
        }

        @Override
        public void receive(ActorContext ctx, Object message) {
        }
    }

    /** Holds nothing and does nothing; tells the measurement it has started. */
    private static final class Idle implements Actor {
        private final RoundSignal started;

        Idle(RoundSignal started) {
            this.started = started;
        }

        @Override
        public void preStart(ActorContext ctx) {
            started.done();
        }

        @Override
        public void receive(ActorContext ctx, Object message) {
        }
    }
}
