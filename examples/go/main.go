// A Go program using the pulumi-resource-opsledger plugin through the Go SDK generated from its schema: it keeps a
// firewall policy under a folder, deletes an inventory source group, waits on an operation and reads every data
// source. The ids are those of the sandbox's fixture (`npm run sandbox`); against Google, write your own.
package main

import (
	"github.com/pulumi-opsledger/pulumi-opsledger/sdk/go/opsledger/compute"
	"github.com/pulumi-opsledger/pulumi-opsledger/sdk/go/opsledger/deploymentmanager"
	"github.com/pulumi-opsledger/pulumi-opsledger/sdk/go/opsledger/displayvideo"
	"github.com/pulumi-opsledger/pulumi-opsledger/sdk/go/opsledger/iam"
	"github.com/pulumi-opsledger/pulumi-opsledger/sdk/go/opsledger/operations"
	"github.com/pulumi-opsledger/pulumi-opsledger/sdk/go/opsledger/workspaceevents"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"
)

// The operation the fixture's IAM policy binding started.
const bindingOperation = "folders/200000000001/locations/global/operations/op-binding-created"

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		// Pulumi.yaml declares parentId with its default.
		parentID := config.Require(ctx, "parentId")

		// Quote numeric ids: they are int64 decimal strings (the plugin refuses anything else, naming the field).
		policy, err := compute.NewFirewallPolicyMove(ctx, "edge-policy", &compute.FirewallPolicyMoveArgs{
			FirewallPolicy: pulumi.String("700000000002"),
			ParentId:       pulumi.String(parentID),
		}, pulumi.Timeouts(&pulumi.CustomTimeouts{Create: "20m", Update: "20m"}))
		if err != nil {
			return err
		}
		group, err := displayvideo.NewInventorySourceGroupDeletion(ctx, "spare-group",
			&displayvideo.InventorySourceGroupDeletionArgs{
				InventorySourceGroupId: pulumi.String("5005"),
				PartnerId:              pulumi.String("1001"),
			})
		if err != nil {
			return err
		}
		wait, err := operations.NewOperationWait(ctx, "policy-binding", &operations.OperationWaitArgs{
			Operation: pulumi.String(bindingOperation),
			Timeouts:  &operations.OperationWaitTimeoutsArgs{Create: pulumi.String("20m")},
		})
		if err != nil {
			return err
		}

		// The data sources: read during preview too, with a read-only token.
		pool, err := iam.GetWorkforcePoolIamPolicy(ctx, &iam.GetWorkforcePoolIamPolicyArgs{
			WorkforcePoolId: "sandbox-contractors",
		})
		if err != nil {
			return err
		}
		iamOperation, err := iam.GetOperation(ctx, &iam.GetOperationArgs{Name: bindingOperation})
		if err != nil {
			return err
		}
		deployment, err := deploymentmanager.GetDeployment(ctx, &deploymentmanager.GetDeploymentArgs{
			Project:    "sandbox-project",
			Deployment: "web-stack",
		})
		if err != nil {
			return err
		}
		subscription, err := workspaceevents.GetSubscription(ctx, &workspaceevents.GetSubscriptionArgs{
			Name: "subscriptions/chat-spaces-sandbox",
		})
		if err != nil {
			return err
		}
		// Google has sunset Display & Video 360 v1-v3.
		creative, err := displayvideo.GetCreative(ctx, &displayvideo.GetCreativeArgs{
			AdvertiserId: "2001",
			CreativeId:   "7001",
			ApiVersion:   pulumi.StringRef("v4"),
		})
		if err != nil {
			return err
		}

		ctx.Export("parent", policy.Parent)
		ctx.Export("previousParent", policy.PreviousParent)
		ctx.Export("groupOutcome", group.Outcome)
		ctx.Export("operationStatus", wait.Status)
		ctx.Export("workforcePoolEtag", pulumi.String(pool.Etag))
		ctx.Export("iamOperationDone", pulumi.Bool(iamOperation.Done))
		ctx.Export("deploymentOperationStatus", pulumi.Any(deployment.Operation["status"]))
		ctx.Export("subscriptionState", pulumi.StringPtrFromPtr(subscription.State))
		ctx.Export("creativeName", pulumi.StringPtrFromPtr(creative.DisplayName))
		return nil
	})
}
