/* campaign.h - `musket campaign`: a Hold the Line campaign (HtL 12) played
 * scenario by scenario, with the VP carried from one to the next. */
#ifndef MK_CLI_CAMPAIGN_H
#define MK_CLI_CAMPAIGN_H

/* `musket campaign CAMPAIGN [--auto | --ai ENGINE | --hotseat] [--side SIDE]
 * [--seed N] [--option ID ...]` and `musket campaign --list`. Plays each
 * scenario in turn (in the terminal through `musket play`, or computer
 * against computer with --auto), prints each result, the VP it carries and
 * the running total, then the campaign winner. Returns 0 when the campaign
 * ends (or is left), 2 for a usage error or an unavailable campaign, 1 for
 * a failure. */
int mk_cli_campaign(int argc, char **argv);

#define MK_CLI_CAMPAIGN_SUMMARY "campaign CAMPAIGN    play a Hold the Line campaign (--list, --help)"

#endif
