import CaffeProtocol
import Foundation
import Logging
import Synchronization
import ZeroMQ

extension Worker {
    /// The publisher thread: sends each result's outputs (`[topic][header][body]`, repeated after
    /// the completion mark), then marks its input done. Each source's contiguous done sequence is
    /// checkpointed every `checkpoint.interval_ms` and at the end, so a checkpoint never covers an
    /// input whose outputs were not all sent.
    func publish(from pipe: ZMQSocket, to output: ZMQSocket) {
        var done = resumed.sources.mapValues { ContiguousSequence(contiguous: $0) }
        var lastCheckpoint = ContinuousClock.now
        let interval = Duration.milliseconds(configuration.checkpoint.intervalMilliseconds)
        var written = resumed.sources
        func checkpoint() {
            let marks = done.mapValues(\.contiguous)
            guard marks != written, let checkpointURL else { return }
            do {
                try Checkpoint(sources: marks).write(to: checkpointURL)
                written = marks
                metrics.checkpoints.add()
            } catch {
                logger.error("checkpoint not written", metadata: ["error": "\(error)"])
            }
        }
        while true {
            // Read before waiting: if both producers had ended by then, an empty wait means
            // nothing more can come (a result sent just before they ended is still read).
            let producersDone =
                intakeFinished.load(ordering: .sequentiallyConsistent)
                && renderersRunning.load(ordering: .sequentiallyConsistent) == 0
            let message: [ZMQMessage]?
            do {
                message = try pipe.receiveMultipart(timeout: .milliseconds(50))
            } catch {
                logger.error("publish receive failed", metadata: ["error": "\(error)"])
                break
            }
            if let message, let markFrame = message.first {
                var complete = true
                var index = 1
                while index + 3 <= message.count {
                    if send(Array(message[index..<(index + 3)]), on: output, what: "output") {
                        metrics.published.add()
                    } else {
                        complete = false
                    }
                    index += 3
                }
                if complete, let mark = CompletionMark(frame: markFrame) {
                    if mark.range.lowerBound == mark.range.upperBound {
                        done[mark.source, default: ContiguousSequence()].insert(mark.range.lowerBound)
                    } else {
                        done[mark.source, default: ContiguousSequence()].insert(mark.range)
                    }
                }
            } else if producersDone {
                break
            }
            if ContinuousClock.now - lastCheckpoint >= interval {
                checkpoint()
                lastCheckpoint = .now
            }
        }
        checkpoint()
        pipe.close(linger: .milliseconds(0))
        output.close(linger: givingUp.load(ordering: .relaxed) ? .milliseconds(0) : .seconds(5))
    }
}
