import CaffeCore
// Caffe — CaffeWorker tests.
import CaffeProtocol
import CaffeTestKit
import Foundation
import Testing

@testable import CaffeWorker

@Suite("Worker configuration")
struct WorkerConfigurationTests {
    static let file = ConfigurationDirectory.builtIn.appendingPathComponent("worker.yaml")

    @Test("config/worker.yaml states exactly the built-in defaults, every key")
    func fileDocumentsTheDefaults() throws {
        let loaded = try WorkerConfigurationLoader.load(file: Self.file, environment: [:])
        #expect(loaded == WorkerConfiguration())
        let text = try String(contentsOf: Self.file, encoding: .utf8)
        let flat = try WorkerConfigurationLoader.flatten(yaml: text, source: "worker.yaml").map(\.0)
        #expect(flat == WorkerConfigurationLoader.keys)
    }

    @Test("the key table's defaults are what config/worker.yaml writes, and read back as the defaults")
    func keyTableDefaults() throws {
        let table = WorkerConfigurationLoader.keyTable
        #expect(table.map(\.name) == WorkerConfigurationLoader.keys)
        let text = try String(contentsOf: Self.file, encoding: .utf8)
        let written = try WorkerConfigurationLoader.flatten(yaml: text, source: "worker.yaml")
        for (key, (name, raw)) in zip(table, written) {
            #expect(key.name == name)
            let value: String
            switch raw {
            case .scalar(let text): value = text
            case .list(let items): value = items.joined(separator: ", ")
            }
            #expect(key.defaultValue == value, "\(name): the table says \(key.defaultValue), the file \(value)")
        }
        // Every default given back as a flag makes the built-in configuration.
        let again = try WorkerConfigurationLoader.load(
            file: nil,
            environment: [:],
            overrides: table.map { "\($0.name)=\($0.defaultValue)" }
        )
        #expect(again == WorkerConfiguration())
        let threads = try #require(table.first { $0.name == "render.threads" })
        #expect(
            threads
                == WorkerConfigurationKey(
                    name: "render.threads",
                    environmentVariable: "CAFFE_RENDER_THREADS",
                    type:
                        "whole number 0…256 (0: one per core the process may use: its CPU affinity, capped by the cgroup CPU limit (cpu.max))",
                    defaultValue: "0"
                )
        )
        #expect(table.first { $0.name == "input.source_idle_ms" }?.type == "milliseconds 100…86400000")
        #expect(table.first { $0.name == "output.kind" }?.type == "pub | push | acked")
        #expect(
            table.first { $0.name == "input.endpoints" }?.type
                == "list of endpoints (@ binds, > connects; without either: connect)"
        )
    }

    @Test("caffe worker --keys lists every key, its default, variable and type")
    func keysCommand() throws {
        let caffe = try #require(ExecutableRunner.locate("caffe"), "build with swift build --build-tests")
        let result = try ExecutableRunner.run(caffe, ["worker", "--keys"])
        #expect(result.status == 0)
        let lines = result.standardOutput.split(separator: "\n").map {
            $0.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
        }
        #expect(lines.count == WorkerConfigurationLoader.keys.count + 1)
        #expect(lines.first == "KEY DEFAULT ENVIRONMENT TYPE")
        #expect(
            lines.contains(
                "render.threads 0 CAFFE_RENDER_THREADS whole number 0…256 (0: one per core the process may use: its CPU affinity, capped by the cgroup CPU limit (cpu.max))"
            )
        )
        #expect(
            lines.contains("shutdown.drain_timeout_ms 10000 CAFFE_SHUTDOWN_DRAIN_TIMEOUT_MS milliseconds 0…3600000")
        )
        #expect(lines.contains("input.shard \"\" CAFFE_INPUT_SHARD i/N (0 ≤ i < N ≤ 4096) or empty"))
    }

    @Test("file < environment < flags")
    func layers() throws {
        let environment = ["CAFFE_RENDER_THREADS": "3", "CAFFE_INPUT_KIND": "pull", "CAFFE_OUTPUT_KIND": "push"]
        let fromEnvironment = try WorkerConfigurationLoader.load(file: Self.file, environment: environment)
        #expect(fromEnvironment.render.threads == 3)
        #expect(fromEnvironment.input.kind == .pull && fromEnvironment.output.kind == .push)
        let fromFlags = try WorkerConfigurationLoader.load(
            file: Self.file,
            environment: environment,
            overrides: ["render.threads=5", "input.endpoints=@tcp://127.0.0.1:7000, >ipc:///tmp/x"]
        )
        #expect(fromFlags.render.threads == 5)
        #expect(fromFlags.input.kind == .pull)
        #expect(
            fromFlags.input.endpoints == [
                WorkerEndpoint(.bind, "tcp://127.0.0.1:7000"), WorkerEndpoint(.connect, "ipc:///tmp/x"),
            ]
        )
        #expect(
            WorkerConfigurationLoader.environmentVariable(for: "checkpoint.interval_ms")
                == "CAFFE_CHECKPOINT_INTERVAL_MS"
        )
    }

    @Test("bad values name the key and where they came from")
    func errors() {
        func failure(_ environment: [String: String] = [:], _ overrides: [String] = [], yaml: String? = nil) -> String?
        {
            var file: URL?
            if let yaml {
                let url = FileManager.default.temporaryDirectory.appendingPathComponent("worker-\(UUID()).yaml")
                try? yaml.write(to: url, atomically: true, encoding: .utf8)
                file = url
            }
            defer { file.map { try? FileManager.default.removeItem(at: $0) } }
            do {
                _ = try WorkerConfigurationLoader.load(file: file, environment: environment, overrides: overrides)
                return nil
            } catch {
                guard let file else { return error.description }
                return error.description.replacingOccurrences(of: file.path, with: "FILE")
            }
        }
        let key = "rq0ie4xiN!aU4.KQ-6jWXb82<dScr=6gs(bTkMVv"
        #expect(
            failure([:], ["curve.secret_key=\(key)"])
                == "curve.allowed_clients (from configuration): with CURVE on, list the client keys the bound endpoints admit"
        )
        #expect(
            failure([:], ["curve.secret_key=\(key)", "curve.allowed_clients=\(key)"])
                == "curve.server_key (from configuration): with CURVE on, the endpoints the worker connects to need the server's public key"
        )
        // Failing closed: required, and the key did not arrive (CAFFE_CURVE_SECRET_KEY empty).
        #expect(
            failure(["CAFFE_CURVE_SECRET_KEY": ""], ["curve.required=true"])
                == "curve.secret_key (from configuration): curve.required is set and no secret key was given: "
                + "the worker does not run without CURVE"
        )
        #expect(
            failure([:], ["curve.server_key=short"])?.hasPrefix("curve.server_key (from --set): not a CURVE key")
                == true
        )
        // Admin restricted to listed keys needs CURVE, and keys the endpoint admits.
        #expect(
            failure([:], ["rpc.admin_allowed_keys=\(key)"])
                == "rpc.admin_allowed_keys (from configuration): needs CURVE (curve.secret_key): without it no client "
                + "proves a key"
        )
        let other = "Yne@$w-vo<fVvi]a<NY6T1ed:M$fCG*[IaLV{hID"
        #expect(
            failure(
                [:],
                [
                    "curve.secret_key=\(key)", "curve.allowed_clients=\(key)", "curve.server_key=\(key)",
                    "rpc.admin_allowed_keys=\(other)",
                ]
            )
                == "rpc.admin_allowed_keys (from configuration): '\(other)' is not in curve.allowed_clients: the "
                + "endpoint would refuse it before Admin could"
        )
        #expect(
            failure(["CAFFE_LOG_LEVEL": "loud"])?.hasPrefix("log.level (from CAFFE_LOG_LEVEL): 'loud' is not one of")
                == true
        )
        #expect(
            failure([:], ["metrics.address=9464"])
                == "metrics.address (from --set): '9464' is not host:port, such as 127.0.0.1:9464 or 0.0.0.0:9464"
        )
        #expect(
            failure([:], ["replay.endpoints=pos-1"])
                == "replay.endpoints (from --set): 'pos-1' is not source=endpoint, such as pos-1=tcp://10.0.0.5:5563"
        )
        let replay = try? WorkerConfigurationLoader.load(
            file: nil,
            environment: [:],
            overrides: ["replay.endpoints=pos-1=tcp://10.0.0.5:5563, pos-2=>ipc:///tmp/r", "rpc.endpoint="]
        )
        #expect(replay?.replay.endpoints == ["pos-1": "tcp://10.0.0.5:5563", "pos-2": "ipc:///tmp/r"])
        #expect(replay.map { $0.rpc.endpoint == nil } == true)
        #expect(failure(["CAFFE_INPUT_KIND": "sab"]) == "input.kind (from CAFFE_INPUT_KIND): 'sab' is not sub or pull")
        #expect(failure([:], ["render.threads=-1"]) == "render.threads (from --set): -1 is outside 0...256")
        #expect(failure([:], ["render.threads"]) == "render.threads (from --set): expected key=value")
        #expect(
            failure([:], ["output.endpoints=localhost:5561"])
                == "output.endpoints (from --set): 'localhost:5561' is not an endpoint such as @tcp://*:5561 or >tcp://host:5560"
        )
        #expect(failure(yaml: "render:\n  thread: 2\n")?.hasPrefix("render.thread (from FILE): unknown key") == true)
        #expect(failure(yaml: "render: [1, 2\n")?.hasPrefix("FILE: not valid YAML") == true)
        #expect(
            failure(yaml: "input:\n  topics: []\n")
                == "input.topics (from configuration): a SUB input with no topics receives nothing"
        )
        #expect(
            failure([:], ["input.endpoints=@tcp://127.0.0.1:9", "output.endpoints=@tcp://127.0.0.1:9"])
                == "output.endpoints (from configuration): tcp://127.0.0.1:9 is bound by the input too"
        )
    }
}
