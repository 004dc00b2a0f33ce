#!/usr/bin/env node
// `quarry partition` starts its first partition process before anything else loads: the process
// starts and loads the partitioner on another core while this one parses the command line.
if (process.argv[2] === 'partition') (await import('@quarry/nodes/pool')).PartitionPool.prestart();
const { main } = await import('./main.js');

process.exitCode = await main(process.argv);
