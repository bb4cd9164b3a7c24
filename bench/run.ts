/** `npm run bench`: every speed, memory and weight figure, printed; targets beside them. Tests never time anything. */
import { formatBusyEvening, runBusyEveningBench } from './busy-evening';
import { runEngineBench } from './engine';
import { formatJobsBench, runJobsBench } from './jobs';
import { pipelineLines } from './pipeline';
import { formatSiteBench, runSiteBench } from './site';

async function main(): Promise<void> {
  const only = process.argv[2];
  if (!only || only === 'engine') await runEngineBench();
  if (!only || only === 'jobs') {
    console.log(`\n${formatJobsBench(await runJobsBench())}`);
  }
  if (!only || only === 'pipeline') {
    console.log((await pipelineLines()).join('\n'));
  }
  if (!only || only === 'busy-evening') console.log(formatBusyEvening(await runBusyEveningBench()));
  if (!only || only === 'site') console.log(`\n${formatSiteBench(await runSiteBench())}`);
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
