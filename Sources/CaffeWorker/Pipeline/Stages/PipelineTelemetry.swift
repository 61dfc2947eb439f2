import CaffeBooks
import CaffeCore
import CaffeProtocol
import CaffeTransport
import Logging
import ZeroMQ

/// What the pipeline thread says about its work: the counts every stage keeps (published to
/// ``WorkerMetrics`` at most every ``WorkerMetrics/publishInterval``), the gauges and lag read
/// from the books, and the logs each stage writes within a budget, with what a budget held back
/// said once it allows a line.
struct PipelineTelemetry {
    var counts: ThreadCounts
    let logger: Logger
    let metrics: WorkerMetrics
    private var labels = LabelCache()
    /// Dead letters logged at most so often; the rest counted and said.
    private var deadLetterLog = LogBudget()
    private var duplicateLog = LogBudget(perSecond: 1, burst: 5)
    private var notOwnedLog = LogBudget(perSecond: 1, burst: 5)
    /// Source restarts (a new epoch): a source that sends a new epoch with every message would
    /// otherwise write a line per message (the counter counts them all).
    private var restartLog = LogBudget(perSecond: 1, burst: 10)
    /// Words agreement left as written that were logged, the first ``noticeLogLimit``.
    private var loggedNotices: Set<AgreementNotice> = []
    private static let noticeLogLimit = 1000
    /// When the lag gauges are next computed.
    private var nextLagScan: ContinuousClock.Instant?

    /// Counts in `metrics`' shard `name`; a reader wanting fresh counts wakes the thread through
    /// `wakeup`.
    init(metrics: WorkerMetrics, logger: Logger, wakeup: ZMQWakeup?, name: String = "pipeline") {
        self.metrics = metrics
        self.logger = logger
        counts = ThreadCounts(name, in: metrics, wakeup: wakeup)
    }

    /// Changes the counts.
    @inline(__always)
    mutating func count(_ body: (inout WorkerCounts) -> Void) { counts.count(body) }

    // MARK: Outcomes

    /// Counts what became of one input (rendered, dead-lettered, parked), logs its dead letter and
    /// the words agreement left, and updates the locale cache gauge.
    mutating func record(_ event: RenderedEvent, at now: ContinuousClock.Instant) {
        if let note = event.letter { logDeadLetter(note, at: now) }
        let metrics = metrics
        var labels = labels
        counts.count { counts in
            switch event.summary {
            case .rendered(let kind, let locale, let outputs, let nanoseconds):
                counts.rendered += 1
                counts.renderLatency[LabelPair(kind, labels.label(locale, metrics)), default: LatencyHistogram()]
                    .record(nanoseconds: nanoseconds)
                for output in outputs {
                    counts.outputs[LabelPair(output.first, labels.label(output.second, metrics)), default: 0] += 1
                }
            case .deadLetter(let reason):
                counts.deadLetters[reason, default: 0] += 1
            case .parked:
                counts.parked += 1
            case .deferred:
                break
            }
            if let cache = event.localeCache {
                counts.localeCompilations &+= cache.compilations
                counts.localeEvictions &+= cache.evictions
            }
            for notice in event.notices {
                counts.agreementWordsLeft[LabelPair(labels.label(notice.locale, metrics), notice.reason), default: 0] +=
                    1
            }
        }
        self.labels = labels
        if let cache = event.localeCache {
            metrics.reportLocaleCache(renderer: cache.renderer, bytes: cache.bytes, bound: cache.bound)
        }
        if !event.notices.isEmpty { log(event.notices) }
    }

    /// Logs a dead letter (warning) unless the budget is spent: reason, reference, detail and a
    /// short excerpt of its bytes, with how many went unlogged before it.
    private mutating func logDeadLetter(_ note: DeadLetterNote, at now: ContinuousClock.Instant) {
        guard let heldBack = deadLetterLog.admit(at: now) else { return }
        var metadata: Logger.Metadata = [
            "reason": "\(note.reason)", "source": "\(note.source)", "sequence": "\(note.sequence)",
            "detail": "\(note.detail)",
        ]
        if !note.orderID.isEmpty { metadata["order_id"] = "\(note.orderID)" }
        if !note.excerpt.isEmpty { metadata["excerpt"] = "\(note.excerpt)" }
        metadata.addTrace(note.trace)
        if heldBack > 0 { metadata["not_logged_before"] = "\(heldBack)" }
        logger.warning("dead letter", metadata: metadata)
    }

    /// Logs each word agreement left as written once per (locale, reason, word), the first
    /// ``noticeLogLimit`` of them; the counter keeps counting after that.
    private mutating func log(_ notices: [AgreementNotice]) {
        for notice in notices where loggedNotices.count <= Self.noticeLogLimit {
            guard loggedNotices.insert(notice).inserted else { continue }
            if loggedNotices.count > Self.noticeLogLimit {
                logger.warning(
                    "agreement: more words left as written than are logged; see caffe_worker_agreement_words_left_total",
                    metadata: ["logged": "\(Self.noticeLogLimit)"]
                )
                return
            }
            logger.warning(
                "agreement left a word as written",
                metadata: [
                    "locale": "\(notice.locale)", "reason": "\(notice.reason)", "word": "\(notice.word)",
                    "fix": "declare it in the catalog's Menu table, or run caffe lint --agreement",
                ]
            )
        }
    }

    // MARK: Intake

    /// Counts and logs (notice, budgeted) a dropped duplicate; for a source without an epoch,
    /// with the hint that a restarted source numbering from 1 again is taken for one.
    mutating func duplicate(_ header: Caffe_V1_EventHeader, retry: Bool, at now: ContinuousClock.Instant) {
        counts.count { $0.duplicates += 1 }
        guard let heldBack = duplicateLog.admit(at: now) else { return }
        var metadata: Logger.Metadata = [
            "source": "\(SourceStream.describe(header.streamKey))", "sequence": "\(header.sequence)",
            "kind": "\(retry ? "order id sent before under another sequence" : "sequence seen before")",
        ]
        if !header.orderID.isEmpty { metadata["order_id"] = "\(header.orderID)" }
        if header.sourceEpoch == 0, !retry {
            metadata["hint"] =
                "a source that numbers from 1 again after a restart must send a new source_epoch (docs/WIRE.md)"
        }
        metadata.addTrace(header.traceParent)
        if heldBack > 0 { metadata["not_logged_before"] = "\(heldBack)" }
        logger.notice("duplicate event dropped", metadata: metadata)
    }

    /// Counts and logs (budgeted) an event of a source another shard owns.
    mutating func notOwned(_ source: String, shard: ShardAssignment, at now: ContinuousClock.Instant) {
        counts.count { $0.notOwned += 1 }
        guard let heldBack = notOwnedLog.admit(at: now) else { return }
        var metadata: Logger.Metadata = [
            "source": "\(source)", "shard": "\(shard)",
            "owner": "\(ShardAssignment.shard(of: source, among: shard.count))/\(shard.count)",
        ]
        if heldBack > 0 { metadata["not_logged_before"] = "\(heldBack)" }
        logger.warning("event of another shard's source dropped", metadata: metadata)
    }

    /// Counts and logs (budgeted) a source that restarted under a new epoch.
    mutating func restarted(source: String, epoch: UInt64, previous: UInt64, at now: ContinuousClock.Instant) {
        counts.count { $0.sourceRestarts += 1 }
        guard let heldBack = restartLog.admit(at: now) else { return }
        var metadata: Logger.Metadata = [
            "source": "\(source)", "epoch": "\(epoch)", "previous_epoch": "\(previous)",
        ]
        if heldBack > 0 { metadata["not_logged_before"] = "\(heldBack)" }
        logger.notice("source restarted: a new source_epoch, its numbering starts again", metadata: metadata)
    }

    // MARK: The books' actions

    mutating func gapFound(_ source: String, _ range: ClosedRange<UInt64>) {
        counts.count {
            $0.gaps += 1
            WorkerCounts.add(UInt64(range.count), to: &$0.missingSequences)
        }
        logger.warning(
            "sequence gap",
            metadata: [
                "source": "\(SourceStream.describe(source))", "from": "\(range.lowerBound)",
                "to": "\(range.upperBound)",
            ]
        )
    }

    /// Counts and logs an announced replay endpoint that was not taken, or that replaced another.
    mutating func announced(_ announcement: Intake.Announcement, source: String) {
        switch announcement.outcome {
        case .pinned, .unchanged:
            break
        case .changed(let old):
            logger.notice(
                "replay endpoint changed",
                metadata: ["source": "\(source)", "from": "\(old)", "to": "\(announcement.endpoint)"]
            )
        case .refused(let kept):
            counts.count { $0.replayEndpointsRefused += 1 }
            let refused = counts.counts.replayEndpointsRefused
            guard isLoggedOccurrence(refused) else { return }
            logger.warning(
                "announced replay endpoint ignored: the source's endpoint is pinned",
                metadata: [
                    "source": "\(source)", "announced": "\(announcement.endpoint)", "kept": "\(kept)",
                    "refused_so_far": "\(refused)",
                ]
            )
        }
    }

    // MARK: Gauges and logs on a schedule

    /// The gauges the pipeline sets from its queues and books.
    struct Gauges: Equatable {
        var queued = 0
        var pendingGaps = 0
        var activeSources = 0
        var dormantSources = 0
        var parked = 0
    }

    mutating func update(_ gauges: Gauges) {
        let current = counts.counts
        let now = Gauges(
            queued: current.renderQueue,
            pendingGaps: current.pendingGaps,
            activeSources: current.activeSources,
            dormantSources: current.dormantSources,
            parked: current.parkedNow
        )
        guard now != gauges else { return }
        counts.count {
            $0.parkedNow = gauges.parked
            $0.renderQueue = gauges.queued
            $0.pendingGaps = gauges.pendingGaps
            $0.activeSources = gauges.activeSources
            $0.dormantSources = gauges.dormantSources
        }
    }

    /// Sets the lag gauges from the books, at most once a second, and less often with many
    /// active sources (a scan of 20,000 a second at most).
    mutating func updateLag(from books: SourceBooks, at now: ContinuousClock.Instant) {
        if let next = nextLagScan, now < next { return }
        let active = books.intake.tracker.counts.active
        nextLagScan = now + .seconds(max(1, active / 20_000))
        let (furthest, total) = books.lag(limit: WorkerCounts.maxLagLabels)
        let labels = Dictionary(
            furthest.map { (SourceStream.describe($0.source), $0.events) },
            uniquingKeysWith: { max($0, $1) }
        )
        let current = counts.counts
        guard current.totalLag != total || current.sourceLag != labels else { return }
        counts.count {
            $0.totalLag = total
            $0.sourceLag = labels
        }
    }

    /// Says how many dead letters, duplicates and other shards' events the budgets held back,
    /// once they allow a line.
    mutating func flushHeldBackLogs(at now: ContinuousClock.Instant) {
        if let count = deadLetterLog.flush(at: now) {
            logger.warning("dead letters not logged one by one (log rate limit)", metadata: ["count": "\(count)"])
        }
        if let count = duplicateLog.flush(at: now) {
            logger.notice("duplicates not logged one by one (log rate limit)", metadata: ["count": "\(count)"])
        }
        if let count = notOwnedLog.flush(at: now) {
            logger.warning(
                "events of other shards' sources not logged one by one (log rate limit)",
                metadata: ["count": "\(count)"]
            )
        }
    }
}

/// Locale labels for the metrics, cached per thread (the shared table takes a lock).
struct LabelCache {
    private var labels: [String: String] = [:]

    mutating func label(_ locale: String, _ metrics: WorkerMetrics) -> String {
        if let label = labels[locale] { return label }
        if labels.count > 256 { labels.removeAll() }
        let label = metrics.localeLabel(locale)
        labels[locale] = label
        return label
    }
}
